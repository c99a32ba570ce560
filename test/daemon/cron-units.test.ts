// Cron building blocks: schedules (5/6/7 fields, UTC) and quiet windows (docs/cron.md#schedules, docs/cron.md#firing).
import { expect, test } from "bun:test";
import { inQuietWindow, isValidTime } from "../../src/daemon/cron/quiet.ts";
import { nextFire, validateSchedule } from "../../src/daemon/cron/schedule.ts";

test("5-, 6- and 7-field schedules are accepted; fire times are in UTC", () => {
  const after = new Date("2026-11-22T03:10:00Z");
  expect(nextFire("0 */2 * * *", after)?.toISOString()).toBe("2026-11-22T04:00:00.000Z");
  expect(nextFire("30 * * * * *", after)?.toISOString()).toBe("2026-11-22T03:10:30.000Z");
  expect(nextFire("0 0 12 * * MON 2027", after)?.toISOString()).toBe("2027-01-04T12:00:00.000Z");
});

test("bad schedules are refused with the reason", () => {
  expect(() => validateSchedule("bad")).toThrow("invalid cron schedule 'bad': ");
  expect(() => validateSchedule("61 * * * *")).toThrow(/invalid cron schedule '61 \* \* \* \*': .*minute/);
  expect(() => validateSchedule("0 */2 * * *")).not.toThrow();
});

test("quiet windows: [start, end), wrapping midnight, empty when equal or unset", () => {
  const at = (h: number, m: number) => new Date(2026, 10, 22, h, m);
  expect(inQuietWindow(at(23, 30), "23:00", "07:00")).toBe(true);
  expect(inQuietWindow(at(6, 59), "23:00", "07:00")).toBe(true);
  expect(inQuietWindow(at(7, 0), "23:00", "07:00")).toBe(false);
  expect(inQuietWindow(at(12, 0), "09:00", "17:00")).toBe(true);
  expect(inQuietWindow(at(17, 0), "09:00", "17:00")).toBe(false);
  expect(inQuietWindow(at(12, 0), "12:00", "12:00")).toBe(false);
  expect(inQuietWindow(at(12, 0), "09:00", undefined)).toBe(false);
  expect(inQuietWindow(at(12, 0), "9am", "17:00")).toBe(false);
  expect(["00:00", "23:59"].every(isValidTime)).toBe(true);
  expect(["24:00", "7:00", "12:60", ""].some(isValidTime)).toBe(false);
});
