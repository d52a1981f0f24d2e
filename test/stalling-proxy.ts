import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can stall or go down. Stalled, it
 * accepts connections and keeps every byte it receives, in both directions,
 * without passing it on (a hung link or proxy, not a closed one); down, it resets
 * every connection, open or new (a database that is gone). `resume` passes
 * everything on again.
 */
export class StallingProxy {
  private stalled = false;
  private down = false;
  private readonly resumers = new Set<() => void>();
  private readonly sockets = new Set<net.Socket>();
  private readonly clients = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => this.accept(socket));
  constructor(private readonly upstream: { host: string; port: number }) {}

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Connections from the server open now. */
  get connections() {
    return this.clients.size;
  }

  stall() {
    this.stalled = true;
  }

  goDown() {
    this.down = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
  }

  resume() {
    this.down = false;
    this.stalled = false;
    for (const resume of this.resumers) resume();
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: net.Socket) {
    if (this.down) {
      client.resetAndDestroy();
      return;
    }
    this.clients.add(client);
    client.on('close', () => this.clients.delete(client));
    const upstream = net.connect(this.upstream);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    this.forward(client, upstream);
    this.forward(upstream, client);
  }

  private forward(from: net.Socket, to: net.Socket) {
    const held: Buffer[] = [];
    const flush = () => {
      for (const chunk of held.splice(0)) to.write(chunk);
    };
    this.resumers.add(flush);
    from.on('close', () => this.resumers.delete(flush));
    from.on('data', (chunk: Buffer) => {
      if (this.stalled) held.push(chunk);
      else to.write(chunk);
    });
  }
}
