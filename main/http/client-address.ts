import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1; BlockList also matches their IPv4-mapped and long IPv6 forms. */
const loopbackRanges = new BlockList();
loopbackRanges.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackRanges.addAddress('::1', 'ipv6');

/** Whether an IP address (a socket's peer, a bind address) is a loopback one. */
export function isLoopback(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopbackRanges.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** A loopback address, bracketed or not, or `localhost` (which resolves to one without asking DNS). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return bare.toLowerCase() === 'localhost' || isLoopback(bare);
}

/**
 * Whether this connection is a trusted proxy's (DESIGN §3 BRIDGE_TRUST_PROXY): a tunnel such as
 * cloudflared or ngrok runs on this machine and connects from loopback, carrying many clients'
 * requests over its few sockets. Nothing else is trusted: a forwarded header from any other peer
 * is whatever that peer chose to write.
 */
function fromTrustedProxy(socketAddress: string | undefined, trustProxyHops: number): boolean {
  return trustProxyHops > 0 && socketAddress !== undefined && isLoopback(socketAddress);
}

/**
 * The client a request is from: the socket's peer, or, from a trusted proxy, the address
 * `trustProxyHops` hops back in X-Forwarded-For (each proxy appends the address it was called
 * from: with one hop trusted, the last entry; as Express's `trust proxy` counts). With fewer
 * entries than hops, the furthest one.
 */
export function clientAddress(req: IncomingMessage, trustProxyHops: number): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!fromTrustedProxy(peer, trustProxyHops)) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [peer, ...forwarded.reverse()];
  return chain[Math.min(trustProxyHops, chain.length - 1)]!;
}
