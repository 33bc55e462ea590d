package io.ferry.rpc.remoting;

/** Whether a TLS provider asks its consumers for a certificate. */
public enum ClientAuth {
    /** No certificate asked for: one-way TLS, consumers have no {@code PeerIdentity}. */
    NONE,
    /** Asked for and verified when sent; a consumer without one still connects, without an identity. */
    OPTIONAL,
    /** Mutual TLS: a consumer without a certificate the trust collection vouches for is refused at the handshake. */
    REQUIRE
}
