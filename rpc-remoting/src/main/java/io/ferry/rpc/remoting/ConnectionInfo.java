package io.ferry.rpc.remoting;

import java.time.Duration;

/**
 * A read-only snapshot of one connection, taken when asked for: what operators look at when calls slow down.
 *
 * @param local           this end's address
 * @param remote          the peer's address
 * @param ioThread        the event loop thread that serves the connection
 * @param state           see {@link State}
 * @param pendingCalls    consumer: calls sent and not yet answered; provider: requests read and not yet answered
 * @param queuedBytes     bytes written but still waiting for the socket (the outbound buffer)
 * @param unwritableTime  how long, in all, the outbound buffer has stood above its high water mark
 * @param lastHeartbeatRtt the round trip of the last heartbeat answered, or null when none was (providers send none)
 * @param age             time since the connection was established
 */
public record ConnectionInfo(String local, String remote, String ioThread, State state, int pendingCalls,
                             long queuedBytes, Duration unwritableTime, Duration lastHeartbeatRtt, Duration age) {

    /** Where a connection is in its life. */
    public enum State {
        /** Connected, waiting for the readiness ping's answer; carries no call yet. */
        CONNECTING,
        /** Carries calls. */
        READY,
        /** The provider announced its shutdown: no new calls go here. */
        READONLY,
        /** Takes no new calls and closes once those pending are answered (an elastic pool shrinking, a shutdown). */
        DRAINING,
        CLOSED
    }
}
