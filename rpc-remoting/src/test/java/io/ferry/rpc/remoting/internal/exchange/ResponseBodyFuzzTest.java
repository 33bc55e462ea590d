package io.ferry.rpc.remoting.internal.exchange;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.ferry.rpc.remoting.internal.codec.Frame;

import java.nio.ByteBuffer;

/**
 * Any answer body to a pending call, behind a well-formed header whose status the input's first byte picks (OK or
 * one of the error statuses): values, exceptions, attachments and error strings are decoded against the
 * consumer's allow-list. The call always ends, never with an {@code Error}, and nothing leaks. The seeds are
 * answers Ferry and Dubbo write.
 */
class ResponseBodyFuzzTest {
    private static final byte[] STATUSES = {20, 25, 30, 31, 40, 50, 60, 70, 80, 90, 100};

    private final ConsumerFrameFuzzTest consumer = new ConsumerFrameFuzzTest();

    @FuzzTest
    void anyAnswerBodyEndsTheCall(byte[] input) throws Exception {
        if (input.length == 0) {
            return;
        }
        byte status = STATUSES[(input[0] & 0xff) % STATUSES.length];
        int which = ((input[0] & 0xff) / STATUSES.length) % 3;
        int length = input.length - 1;
        byte[] frame = ByteBuffer.allocate(Frame.HEADER_LENGTH + length).putShort(Frame.MAGIC)
                .put(Frame.HESSIAN2).put(status).putLong(0).putInt(length).put(input, 1, length).array();
        consumer.run(frame, which);
    }
}
