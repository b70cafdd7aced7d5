/**
 * The User Timing mark the month view sets once per page load, after the commit in which it first
 * shows a window's posts: the calendar bench (test/bench/calendar.ts) measures from the arrival of
 * the posts' answer to it.
 */
export const CALENDAR_MONTH_MARK = 'studio-bridge:calendar-month';
