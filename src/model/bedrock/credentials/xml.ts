// A small XML reader for STS answers (docs/providers.md#bedrock--aws-bedrock):
// elements, their text and children; namespaces prefixes dropped; the
// declaration, comments and CDATA understood; the five named entities and
// numeric references decoded. Bounded in depth and element count: the input
// is already capped (http.ts) and a hostile one gets an error, not a hang.
export interface XmlElement {
  name: string;
  text: string;
  children: XmlElement[];
}

const MAX_DEPTH = 32;
const MAX_ELEMENTS = 2000;

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return safeCodePoint(Number.parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith("#")) return safeCodePoint(Number.parseInt(ref.slice(1), 10), whole);
    const named = ENTITIES[ref];
    if (named === undefined) throw new XmlError(`unknown entity &${ref};`);
    return named;
  });
}

function safeCodePoint(n: number, whole: string): string {
  if (!Number.isFinite(n) || n < 0 || n > 0x10ffff) throw new XmlError(`bad character reference ${whole}`);
  return String.fromCodePoint(n);
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);

/** The document's root element. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: "", text: "", children: [] };
  const stack: XmlElement[] = [root];
  let count = 0;
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    const top = stack[stack.length - 1]!;
    if (lt === -1) {
      if (xml.slice(i).trim() !== "") top.text += decode(xml.slice(i));
      break;
    }
    if (lt > i) top.text += decode(xml.slice(i, lt));
    if (xml.startsWith("<?", lt) || xml.startsWith("<!--", lt)) {
      const end = xml.indexOf(xml.startsWith("<?", lt) ? "?>" : "-->", lt + 2);
      if (end === -1) throw new XmlError("unterminated declaration or comment");
      i = end + (xml.startsWith("<?", lt) ? 2 : 3);
      continue;
    }
    if (xml.startsWith("<![CDATA[", lt)) {
      const end = xml.indexOf("]]>", lt);
      if (end === -1) throw new XmlError("unterminated CDATA");
      top.text += xml.slice(lt + 9, end);
      i = end + 3;
      continue;
    }
    if (xml.startsWith("<!", lt)) throw new XmlError("document type declarations are not accepted");
    const gt = xml.indexOf(">", lt);
    if (gt === -1) throw new XmlError("unterminated tag");
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith("/")) {
      const name = localName(tag.slice(1).trim());
      if (stack.length === 1 || top.name !== name) throw new XmlError(`unexpected </${name}>`);
      stack.pop();
      continue;
    }
    const selfClosing = tag.endsWith("/");
    const name = localName((/^[^\s/]+/.exec(tag) ?? [""])[0]);
    if (name === "") throw new XmlError("empty tag name");
    if (++count > MAX_ELEMENTS) throw new XmlError(`more than ${MAX_ELEMENTS} elements`);
    const element: XmlElement = { name, text: "", children: [] };
    top.children.push(element);
    if (!selfClosing) {
      if (stack.length > MAX_DEPTH) throw new XmlError(`nested deeper than ${MAX_DEPTH}`);
      stack.push(element);
    }
  }
  if (stack.length !== 1) throw new XmlError(`<${stack[stack.length - 1]!.name}> is not closed`);
  if (root.children.length !== 1) throw new XmlError("not exactly one root element");
  return root.children[0]!;
}

/** The element at `path` below `from` (first match at each step). */
export function child(from: XmlElement | undefined, ...path: string[]): XmlElement | undefined {
  let at = from;
  for (const name of path) at = at?.children.find((c) => c.name === name);
  return at;
}
