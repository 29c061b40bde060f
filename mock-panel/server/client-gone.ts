/**
 * Learns that a request's client went away. Only a request something waits on (a latency or hang fault, a Fetch
 * Request) needs that: the controller is made on the first `signal()`, aborted at once if the client is already
 * gone, and held in `inFlight` (which the server aborts when it closes) until the exchange ends.
 */
export class ClientGone {
  private controller: AbortController | undefined;
  private gone = false;

  constructor(private readonly inFlight: Set<AbortController>) {}

  signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
      else this.inFlight.add(this.controller);
    }
    return this.controller.signal;
  }

  /** The exchange's connection closed; `answered` when the answer was sent in full first. */
  closed(answered: boolean): void {
    if (this.controller) this.inFlight.delete(this.controller);
    if (answered) return;
    this.gone = true;
    this.controller?.abort();
  }
}
