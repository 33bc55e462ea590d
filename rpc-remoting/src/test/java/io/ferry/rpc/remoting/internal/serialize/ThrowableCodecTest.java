package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.ClassAllowList;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Exceptions cross the wire through Throwable's public API; a JDK 17 test JVM has no --add-opens. */
class ThrowableCodecTest {
    public static class QuotaExceeded extends Exception {
        private static final long serialVersionUID = 1L;
        private int quota;

        public QuotaExceeded(String message) {
            super(message);
        }

        QuotaExceeded(String message, int quota) {
            super(message);
            this.quota = quota;
        }
    }

    /** Decorates its argument: the message sent is already decorated. */
    public static class NoSuchKey extends Exception {
        private static final long serialVersionUID = 1L;

        public NoSuchKey(String key) {
            super("no such key: " + key);
        }
    }

    /** Takes no message at all. */
    public static class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Refused() {
            super("refused by policy");
        }
    }

    /** Takes only a cause, whose text becomes the message. */
    public static class Wrapped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Wrapped(Throwable cause) {
            super(cause);
        }
    }

    /** A code before the message. */
    public static class Coded extends Exception {
        private static final long serialVersionUID = 1L;
        private final int code;

        public Coded(int code, String message) {
            super("[" + code + "] " + message);
            this.code = code;
        }
    }

    public interface Quotas {
        void spend(int amount) throws QuotaExceeded, NoSuchKey, Coded;

        void refuse(Refused refused, Wrapped wrapped);
    }

    private static final SafeSerializerFactory FACTORY = new SafeSerializerFactory(
            AllowedClasses.forServices(List.of(Quotas.class), ClassAllowList.none()));

    private static Object roundTrip(Object value, SafeSerializerFactory factory) throws IOException {
        ByteBuf buf = Unpooled.buffer();
        Hessian2Output out = new Hessian2Output(new ByteBufOutputStream(buf));
        out.setSerializerFactory(factory);
        out.writeObject(value);
        out.flush();
        try {
            return new GuardedHessian2Input(buf, factory).readObject();
        } finally {
            buf.release();
        }
    }

    @Test
    void declaredExceptionKeepsMessageOwnFieldsStackCauseAndSuppressed() throws Exception {
        QuotaExceeded original = new QuotaExceeded("over quota", 42);
        original.initCause(new IllegalStateException("root cause"));
        original.addSuppressed(new java.io.UncheckedIOException("while closing", new java.io.IOException("io")));
        QuotaExceeded copy = assertInstanceOf(QuotaExceeded.class, roundTrip(original, FACTORY));
        assertEquals("over quota", copy.getMessage());
        assertEquals(42, copy.quota);
        assertArrayEquals(original.getStackTrace(), copy.getStackTrace());
        assertEquals(IllegalStateException.class, copy.getCause().getClass());
        assertEquals("root cause", copy.getCause().getMessage());
        assertEquals(1, copy.getSuppressed().length);
        assertEquals("while closing", copy.getSuppressed()[0].getMessage());
        assertEquals("io", copy.getSuppressed()[0].getCause().getMessage());
    }

    @Test
    void jdkExceptionsAndStackTraceElementsRoundTrip() throws Exception {
        NullPointerException npe = new NullPointerException("npe");
        Object copy = roundTrip(npe, FACTORY);
        assertInstanceOf(NullPointerException.class, copy);
        StackTraceElement e = new StackTraceElement("app", "mod", "1.0", "a.B", "m", "B.java", 12);
        assertEquals(e, roundTrip(e, FACTORY));
    }

    @Test
    void rpcExceptionKeepsItsStatusAndMessage() throws Exception {
        io.ferry.rpc.RpcException original = new io.ferry.rpc.RpcException(io.ferry.rpc.RpcStatus.SERVICE_ERROR,
                "downstream failed");
        io.ferry.rpc.RpcException copy = assertInstanceOf(io.ferry.rpc.RpcException.class,
                roundTrip(original, FACTORY));
        assertEquals(io.ferry.rpc.RpcStatus.SERVICE_ERROR, copy.status());
        assertEquals("downstream failed", copy.getMessage());
        assertEquals("io.ferry.rpc.RpcException: SERVICE_ERROR: downstream failed", copy.toString());
    }

    @Test
    void undeclaredApplicationExceptionIsNotAllowed() {
        SafeSerializerFactory noQuotas = new SafeSerializerFactory(AllowedClasses.jdkOnly());
        IOException e = assertThrows(IOException.class, () -> roundTrip(new QuotaExceeded("x"), noQuotas));
        assertTrue(e.getMessage().contains(QuotaExceeded.class.getName()), e.getMessage());
    }

    @Test
    void theMessageArrivesExactlyAsThrownWhateverTheConstructorDoesWithIt() throws Exception {
        for (Throwable original : List.of(new NoSuchKey("xyz"), new Refused(),
                new Wrapped(new IllegalStateException("inner")), new Coded(7, "seven"),
                new QuotaExceeded(null), new QuotaExceeded("plain"))) {
            Throwable copy = (Throwable) roundTrip(original, FACTORY);
            assertEquals(original.getClass(), copy.getClass());
            assertEquals(original.getMessage(), copy.getMessage(), original.getClass().getSimpleName());
            assertArrayEquals(original.getStackTrace(), copy.getStackTrace());
        }
        Coded coded = (Coded) roundTrip(new Coded(7, "seven"), FACTORY);
        assertEquals(7, coded.code, "own fields too");
        Wrapped wrapped = (Wrapped) roundTrip(new Wrapped(new IllegalStateException("inner")), FACTORY);
        assertEquals("inner", wrapped.getCause().getMessage());
    }
}
