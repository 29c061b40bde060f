/** ox_lib's notification types; the feed shows every type alike. */
export type NoticeType = 'success' | 'error' | 'inform';

const SUCCESS = new Set(['on_duty', 'refreshed']);
const INFORM = new Set([
  'off_duty',
  'off_duty_department_removed',
  'off_duty_account_removed',
  'off_duty_admin',
  'off_duty_replaced',
  'off_duty_superseded',
  'off_duty_server_shutdown',
  'restart_notice',
  'already_on_duty',
  'already_off_duty',
  'rank_changed',
  'refreshing',
  'refresh_cooldown',
  'loading',
]);

/** How a message looks: a change the player asked for is a success, news is information, the rest went wrong. */
export const noticeTypeOf = (key: string): NoticeType =>
  SUCCESS.has(key) ? 'success' : INFORM.has(key) ? 'inform' : 'error';
