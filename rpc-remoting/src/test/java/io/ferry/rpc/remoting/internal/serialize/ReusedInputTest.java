package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A thread's reused input starts every body afresh: nothing of the last body can be seen from the next. */
class ReusedInputTest {
    private final SafeSerializerFactory factory = SafeSerializerFactory.jdkOnly();

    @Test
    void aBodyCannotReferToTheValuesOrBytesOfTheBodyBefore() throws IOException {
        List<Object> shared = new ArrayList<>(List.of("x"));
        ByteBuf first = body(shared, shared, "unread tail");
        GuardedHessian2Input in = GuardedHessian2Input.open(first, factory);
        try {
            assertEquals(shared, in.readObject()); // the second copy, a back-reference, and the tail stay unread
        } finally {
            in.release();
        }
        ByteBuf second = Unpooled.wrappedBuffer(new byte[] {0x51, (byte) 0x90}); // a back-reference to value 0
        GuardedHessian2Input again = GuardedHessian2Input.open(second, factory);
        try {
            assertSame(in, again);
            assertThrows(RuntimeException.class, again::readObject);
        } finally {
            again.release();
        }
        GuardedHessian2Input third = GuardedHessian2Input.open(Unpooled.wrappedBuffer(new byte[] {0x01, 'y'}), factory);
        try {
            assertEquals("y", third.readString()); // not the first body's buffered tail
        } finally {
            third.release();
        }
    }

    @Test
    void aDecodeInsideADecodeGetsAnInputOfItsOwn() throws IOException {
        GuardedHessian2Input outer = GuardedHessian2Input.open(body(List.of("a")), factory);
        try {
            GuardedHessian2Input inner = GuardedHessian2Input.open(body(List.of("b")), factory);
            assertNotSame(outer, inner);
            assertEquals(List.of("b"), inner.readObject());
            inner.release();
            assertEquals(List.of("a"), outer.readObject());
        } finally {
            outer.release();
        }
    }

    @Test
    void aBodyThatFailedHalfwayLeavesNothingForTheNext() throws IOException {
        ByteBuf cut = body(List.of("a", "b", "c"));
        cut.writerIndex(cut.writerIndex() - 2); // the list ends in the middle of its last string
        GuardedHessian2Input in = GuardedHessian2Input.open(cut, factory);
        try {
            assertThrows(IOException.class, in::readObject);
        } finally {
            in.release();
        }
        GuardedHessian2Input next = GuardedHessian2Input.open(body(List.of("d"), "e"), factory);
        try {
            assertSame(in, next);
            assertEquals(List.of("d"), next.readObject());
            assertEquals("e", next.readString());
        } finally {
            next.release();
        }
    }

    @Test
    void aLargeBodyIsReadByAnInputThatIsNotKept() throws IOException {
        GuardedHessian2Input small = GuardedHessian2Input.open(body("s"), factory);
        small.release();
        String large = "é".repeat(GuardedHessian2Input.LARGEST_REUSED_BODY);
        GuardedHessian2Input in = GuardedHessian2Input.open(body(large), factory);
        try {
            assertNotSame(small, in, "its scratch, grown to the string, goes with it");
            assertEquals(large, in.readString());
        } finally {
            in.release();
        }
        GuardedHessian2Input after = GuardedHessian2Input.open(body("t"), factory);
        after.release();
        assertSame(small, after);
    }

    @Test
    void nothingIsReadThroughAnInputOnceItsBodyIsReleased() throws IOException {
        ByteBuf body = Unpooled.wrappedBuffer(new byte[4096]);
        GuardedHessian2Input in = GuardedHessian2Input.open(body, factory);
        in.release();
        assertThrows(IOException.class, in::read, "not the next call's bytes, not a NullPointerException");
    }

    private static ByteBuf body(Object... values) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        for (Object value : values) {
            out.writeObject(value);
        }
        out.flush();
        return Unpooled.wrappedBuffer(bytes.toByteArray());
    }
}
