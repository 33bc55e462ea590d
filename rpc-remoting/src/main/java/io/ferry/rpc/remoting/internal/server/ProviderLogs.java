package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.codec.FrameDecoder;
import io.ferry.rpc.remoting.internal.log.PeerLog;

/**
 * The lines a provider's peers can cause, each kind limited on its own ({@link PeerLog}): one set per server, on
 * the server's ticker, so that one server's flood leaves another's lines alone and a test on a fake ticker sees
 * exactly what it caused.
 */
public final class ProviderLogs {
    /** Frames refused before anything is decoded: bad magic, over a limit, incomplete in time. */
    private final PeerLog frames;
    /** Requests whose body could not be decoded. */
    final PeerLog refused;
    /** An Error while decoding, an answer that could not be handed over. */
    final PeerLog failures;
    /** Answers not sent: too large, not serializable. */
    final PeerLog answers;
    /** Connections closed for a reason worth a look: an error, the accepts limit, silence. */
    final PeerLog connections;
    /** Connections the peer reset or closed under us: DEBUG, a peer may leave at any time. */
    final PeerLog resets;

    public ProviderLogs(Ticker ticker) {
        this.frames = new PeerLog(FrameDecoder.class, ticker);
        this.refused = new PeerLog(RequestTask.class, ticker);
        this.failures = new PeerLog(RequestTask.class, ticker);
        this.answers = new PeerLog(Responder.class, ticker);
        this.connections = new PeerLog(ServerHandler.class, ticker);
        this.resets = new PeerLog(ServerHandler.class, ticker);
    }

    public PeerLog frames() {
        return frames;
    }
}
