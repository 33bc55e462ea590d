package io.ferry.rpc.remoting;

/**
 * What one side of the transport (a client's or a server's) has carried since it started: counters that only grow,
 * read without locks and possibly a moment old.
 *
 * @param bytesRead          bytes of Dubbo frames read from peers (after TLS is taken off: TLS records' overhead is
 *                           not counted)
 * @param bytesWritten       bytes of Dubbo frames handed to the transport for peers, as {@code bytesRead}
 * @param backPressurePauses times a connection stopped for a peer that did not keep up: on a client, a connection
 *                           whose outbound buffer crossed its high water mark (it takes no new calls until it
 *                           drains); on a server, a connection it stopped reading from because its answers could
 *                           not go out
 */
public record TransportStats(long bytesRead, long bytesWritten, long backPressurePauses) {
}
