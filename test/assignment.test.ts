import { describe, expect, it } from "vitest";
import { AssignmentError, functionPoints, functionScore, lateFactor, parseAssignment, parseLessonList } from "../tools/classroom/assignment.js";

describe("assignment file", () => {
  it("reads lesson lists as instructors write them, in course order", () => {
    expect(parseLessonList("3-5")).toEqual(["lesson-3", "lesson-4", "lesson-5"]);
    expect(parseLessonList(["lesson-23", 5, "05"])).toEqual(["lesson-5", "lesson-23"]);
    expect(() => parseLessonList("33-40")).toThrow(/"35" is not a lesson/);
    expect(() => parseLessonList("5-3")).toThrow(/empty range/);
  });

  it("names the field of a bad file", () => {
    expect(() => parseAssignment({ name: "a1", lessons: "1-2", deadline: "next friday" }, "a1.json")).toThrow(/a1.json: deadline: an ISO 8601/);
    expect(() => parseAssignment({ name: "a1", lessons: "1-2", extra: 1 }, "a1.json")).toThrow(AssignmentError);
    expect(() => parseAssignment({ name: "a1", lessons: "1-2", points: { "lesson-5": 3 } }, "a1.json")).toThrow(/lesson-5, which the assignment does not include/);
    expect(() => parseAssignment({ name: "a 1", lessons: "1" })).toThrow(/name/);
  });

  it("splits a lesson's points among its functions, own points taken out first", () => {
    const a = parseAssignment({ name: "a1", lessons: [23], points: { "lesson-23": 12, "lesson-23/ppoLoss": 6 } });
    expect(functionPoints(a, "lesson-23", ["maskedGae", "ppoLoss", "valueLoss"])).toEqual({ maskedGae: 3, ppoLoss: 6, valueLoss: 3 });
    expect(functionPoints(parseAssignment({ name: "a", lessons: [3] }), "lesson-3", ["a", "b", "c", "d"])).toEqual({ a: 2.5, b: 2.5, c: 2.5, d: 2.5 });
  });

  it("scores by share or all-or-nothing", () => {
    const share = parseAssignment({ name: "a", lessons: [3] });
    const strict = parseAssignment({ name: "a", lessons: [3], credit: "all-or-nothing" });
    expect(functionScore(share, 4, 3, 4)).toBe(3);
    expect(functionScore(strict, 4, 3, 4)).toBe(0);
    expect(functionScore(strict, 4, 4, 4)).toBe(4);
  });

  it("applies the late rule per started day", () => {
    const a = parseAssignment({ name: "a", lessons: [3], deadline: "2026-12-15T23:59:00Z", late: { penaltyPerDay: 0.1, maxDaysLate: 2 } });
    expect(lateFactor(a, new Date("2026-12-15T23:00:00Z"))).toEqual({ factor: 1, daysLate: 0 });
    expect(lateFactor(a, new Date("2026-12-16T00:30:00Z")).factor).toBeCloseTo(0.9);
    expect(lateFactor(a, new Date("2026-12-17T12:00:00Z")).factor).toBeCloseTo(0.8);
    expect(lateFactor(a, new Date("2026-12-18T12:00:00Z"))).toEqual({ factor: 0, daysLate: 3 });
    const noRule = parseAssignment({ name: "a", lessons: [3], deadline: "2026-12-15T23:59:00Z" });
    expect(lateFactor(noRule, new Date("2026-12-16T00:00:00Z")).factor).toBe(0);
  });
});
