/** Whether the tests run on CI, where a missing tool `.ci/run` installs (redis-server, promtool) fails them. */
export const onCi = !['', '0', 'false'].includes(process.env.CI ?? '');
