package io.ferry.rpc.remoting.internal.server;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ferry.rpc.remoting.internal.codec.Frame;

import java.nio.ByteBuffer;

/**
 * Any request body behind a well-formed two-way header, through the provider's pipeline: the head, the arguments
 * and the attachments are decoded against the service's allow-list. A body the provider cannot read is answered
 * BAD_REQUEST (or "not found") on a connection that stays open; a close here means an {@code Error} while
 * decoding, which is a finding. The seeds are requests for each method of the service.
 */
class RequestBodyFuzzTest {
    private final ProviderFrameFuzzTest provider = new ProviderFrameFuzzTest();

    @FuzzTest
    void anyBodyIsAnsweredAndTheConnectionStaysOpen(byte[] body) {
        byte[] frame = ByteBuffer.allocate(Frame.HEADER_LENGTH + body.length).putShort(Frame.MAGIC).put((byte) 0xC2)
                .put((byte) 0).putLong(7).putInt(body.length).put(body).array();
        if (!provider.run(frame, frame.length)) {
            throw new AssertionError("the connection closed over a " + body.length + "-byte body");
        }
    }
}
