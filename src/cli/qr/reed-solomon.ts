// Reed–Solomon error correction codewords over GF(256) with the QR code's
// field polynomial x^8+x^4+x^3+x^2+1 (0x11D) and generator roots α^0..α^(n-1).

/** Product of two field elements (carry-less multiplication reduced by 0x11D). */
export function gfMultiply(a: number, b: number): number {
  let product = 0;
  for (let i = 7; i >= 0; i--) {
    product = (product << 1) ^ ((product >>> 7) * 0x11d);
    product ^= ((b >>> i) & 1) * a;
  }
  return product & 0xff;
}

/** Coefficients of the generator polynomial of `degree`, highest power first, the leading 1 left out. */
export function generatorPolynomial(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j]!, root);
      if (j + 1 < degree) result[j] ^= result[j + 1]!;
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

/** The `degree` error correction codewords of one block of data codewords. */
export function errorCorrection(data: readonly number[], degree: number): number[] {
  const divisor = generatorPolynomial(degree);
  const result = new Array<number>(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift()!;
    result.push(0);
    for (let i = 0; i < degree; i++) result[i] ^= gfMultiply(divisor[i]!, factor);
  }
  return result;
}
