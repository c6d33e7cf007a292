/** Cursors of the pages seen so far: [undefined] is the newest page. */
export type Cursors = (number | undefined)[];

export const FIRST_PAGE: Cursors = [undefined];

/** The cursors after Older: the next page's cursor on top, when there is a next page. */
export const older = (cursors: Cursors, next: number | null): Cursors =>
  next === null ? cursors : [...cursors, next];

/** The cursors after Newer: back one page. */
export const newer = (cursors: Cursors): Cursors => cursors.slice(0, -1);

/** Page buttons only when there is more than one page: a page before this one or after it. */
export const hasPages = (page: number, next: number | null) => page > 1 || next !== null;
