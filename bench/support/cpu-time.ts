/** CPU time of this process in µs (user + system, every thread): what other processes on the machine do not add. */
export function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * CPU per call of `call`, in µs: the median over `batches` batches of `perBatch` calls each, after one batch to
 * warm up. A batch is long enough for the clock's resolution; the median leaves out a batch a collection landed in.
 */
export function cpuPerCall(call: () => unknown, { batches = 15, perBatch = 1000 } = {}): number {
  const perCall: number[] = [];
  for (let batch = 0; batch <= batches; batch++) {
    const started = cpuMicros();
    for (let index = 0; index < perBatch; index++) call();
    if (batch > 0) perCall.push((cpuMicros() - started) / perBatch);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(perCall.length / 2)] as number;
}
