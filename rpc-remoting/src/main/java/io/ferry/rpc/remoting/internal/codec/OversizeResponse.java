package io.ferry.rpc.remoting.internal.codec;

/**
 * Consumer side: a response whose header announced a body over the payload limit. The decoder skips exactly that
 * many bytes; the call with this id fails alone and the connection carries on.
 */
public record OversizeResponse(long id, int length, int limit) {
}
