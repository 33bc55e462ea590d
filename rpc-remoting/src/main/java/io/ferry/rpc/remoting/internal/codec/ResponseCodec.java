package io.ferry.rpc.remoting.internal.codec;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.GenericException;
import io.ferry.rpc.remoting.internal.generic.GenericFailure;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The body of an OK answer: a flag (a hessian int), then the value or the exception, then the attachments when the
 * request's protocol version supports them (flags 3, 4, 5; 0, 1, 2 otherwise). A business exception is an OK answer
 * too: only framework errors get another status.
 */
public final class ResponseCodec {
    /** What an OK answer carried: a value, or the service's exception, and the attachments. */
    public record Outcome(Object value, Throwable exception, Map<String, Object> attachments) {
    }

    private ResponseCodec() {
    }

    public static void writeValue(Hessian2Output out, boolean withAttachments, Object value,
                                  Map<String, Object> attachments) throws IOException {
        if (value == null) {
            out.writeInt(withAttachments ? Frame.RESPONSE_NULL_VALUE_WITH_ATTACHMENTS : Frame.RESPONSE_NULL_VALUE);
        } else {
            out.writeInt(withAttachments ? Frame.RESPONSE_VALUE_WITH_ATTACHMENTS : Frame.RESPONSE_VALUE);
            out.writeObject(value);
        }
        if (withAttachments) {
            writeAttachments(out, attachments);
        }
    }

    public static void writeException(Hessian2Output out, boolean withAttachments, Throwable exception,
                                      Map<String, Object> attachments) throws IOException {
        out.writeInt(withAttachments ? Frame.RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS : Frame.RESPONSE_WITH_EXCEPTION);
        out.writeObject(exception);
        if (withAttachments) {
            writeAttachments(out, attachments);
        }
    }

    private static void writeAttachments(Hessian2Output out, Map<String, Object> attachments) throws IOException {
        HashMap<String, Object> map = new HashMap<>(attachments);
        map.put("dubbo", Frame.DUBBO_VERSION);
        out.writeObject(map);
    }

    /** Reads an OK answer's body; the value is read as {@code resultType}. */
    public static Outcome read(Hessian2Input in, Class<?> resultType) throws IOException {
        return read(in, resultType, false);
    }

    /**
     * Reads an OK answer's body; the value is read as {@code resultType}. For a generic call ({@code generic}), an
     * exception whose class this side does not read arrives as a map (see {@code SafeSerializerFactory
     * .unknownAsMaps}) and becomes a {@link GenericException} naming the class, with its message.
     */
    public static Outcome read(Hessian2Input in, Class<?> resultType, boolean generic) throws IOException {
        int flag = in.readInt();
        switch (flag) {
            case Frame.RESPONSE_NULL_VALUE:
                return new Outcome(null, null, Collections.emptyMap());
            case Frame.RESPONSE_VALUE:
                return new Outcome(readValue(in, resultType), null, Collections.emptyMap());
            case Frame.RESPONSE_WITH_EXCEPTION:
                return new Outcome(null, readThrowable(in, generic), Collections.emptyMap());
            case Frame.RESPONSE_NULL_VALUE_WITH_ATTACHMENTS:
                return new Outcome(null, null, RequestCodec.readAttachments(in));
            case Frame.RESPONSE_VALUE_WITH_ATTACHMENTS: {
                Object value = readValue(in, resultType);
                return new Outcome(value, null, RequestCodec.readAttachments(in));
            }
            case Frame.RESPONSE_WITH_EXCEPTION_WITH_ATTACHMENTS: {
                Throwable exception = readThrowable(in, generic);
                return new Outcome(null, exception, RequestCodec.readAttachments(in));
            }
            default:
                throw new IOException("unknown response flag " + flag + " (expected 0..5)");
        }
    }

    private static Object readValue(Hessian2Input in, Class<?> resultType) throws IOException {
        if (resultType == void.class || resultType == Void.class) {
            return in.readObject();
        }
        return in.readObject(resultType);
    }

    private static String text(Object value) {
        return value instanceof String s ? s : null;
    }

    private static Throwable readThrowable(Hessian2Input in, boolean generic) throws IOException {
        Object value = generic ? in.readObject() : in.readObject(Throwable.class);
        if (generic && value instanceof Map<?, ?> map && map.get("class") instanceof String className) {
            if ((GenericFailure.DUBBO_CLASS.equals(className) || GenericFailure.DUBBO3_CLASS.equals(className))
                    && map.get("exceptionClass") instanceof String original) {
                // a provider's generic answer: Dubbo's GenericException, naming the service's exception
                return new GenericException(original, text(map.get("exceptionMessage")));
            }
            return new GenericException(className, text(map.get("detailMessage")));
        }
        if (!(value instanceof Throwable t)) {
            throw new IOException("exception answer carries a " + (value == null ? "null" : value.getClass().getName()));
        }
        return t;
    }
}
