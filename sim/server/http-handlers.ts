// The handler each resource registered with SetHttpHandler; http.ts serves the requests through them.

/** Each resource's handler reference, while the resource runs. */
export class HttpHandlers {
  private readonly refs = new Map<string, string>();

  set(resource: string, ref: string): void {
    this.refs.set(resource, ref);
  }

  get(resource: string): string | undefined {
    return this.refs.get(resource);
  }

  /** A stopped resource's endpoint goes (FXServer removes it in OnStop). */
  remove(resource: string): void {
    this.refs.delete(resource);
  }

  clear(): void {
    this.refs.clear();
  }
}
