package io.ferry.rpc.remoting.internal.codec;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.remoting.internal.service.MethodSchema;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The request body: five strings naming the call, the arguments, then the attachments map.
 * <pre>
 *   "2.0.2"  service-path  service-version  method-name  parameter-descriptor  arg0 .. argN  {attachments}
 * </pre>
 * The head is read on its own first, so that the provider resolves service and method before it decodes any
 * argument.
 */
public final class RequestCodec {
    /** What a request names, read before any argument. */
    public record Head(String protocolVersion, String path, String version, String method, String descriptor) {
    }

    public static final String PATH = "path";
    public static final String INTERFACE = "interface";
    public static final String VERSION = "version";
    public static final String GROUP = "group";
    public static final String TIMEOUT = "timeout";
    /** Dubbo's timeout countdown: Integer milliseconds left when the request was written. */
    public static final String TIME_LEFT = "_TO";
    private static final Set<String> PROTOCOL_KEYS = Set.of(PATH, INTERFACE, VERSION, GROUP, TIMEOUT, TIME_LEFT);

    private RequestCodec() {
    }

    /**
     * Writes a consumer's request. Beside the invocation's own attachments, the map carries what a Dubbo provider
     * expects: {@code path}, {@code interface}, {@code version} ("0.0.0" for none), {@code group} (when set),
     * {@code timeout} (the configured timeout in ms, a String, as Dubbo sends it) and {@code _TO} (Dubbo's countdown:
     * the Integer milliseconds left now, which the provider turns into a deadline on receipt). These protocol
     * entries win over attachments of the same name.
     */
    public static void write(Hessian2Output out, Invocation invocation, MethodSchema method) throws IOException {
        String version = invocation.version().isEmpty() ? "0.0.0" : invocation.version();
        out.writeString(Frame.DUBBO_VERSION);
        out.writeString(invocation.service());
        out.writeString(version);
        out.writeString(method.name());
        out.writeString(method.descriptor());
        for (Object argument : invocation.arguments()) {
            out.writeObject(argument);
        }
        // written entry by entry instead of copying into a new HashMap per call; the reader counts the map as a
        // reference, so the writer does too, or later back-references would point one object off
        out.addRef(new Object());
        out.writeMapBegin(null);
        writeEntry(out, PATH, invocation.service());
        writeEntry(out, INTERFACE, invocation.service());
        writeEntry(out, VERSION, version);
        if (!invocation.group().isEmpty()) {
            writeEntry(out, GROUP, invocation.group());
        }
        Deadline deadline = invocation.deadline();
        if (!deadline.isNone()) {
            writeEntry(out, TIMEOUT, Long.toString(deadline.timeoutMillis()));
            writeEntry(out, TIME_LEFT, (int) Math.min(Integer.MAX_VALUE, deadline.remainingMillis()));
        }
        for (Map.Entry<String, Object> e : invocation.attachments().entrySet()) {
            if (!PROTOCOL_KEYS.contains(e.getKey())) {
                writeEntry(out, e.getKey(), e.getValue());
            }
        }
        out.writeMapEnd();
    }

    private static void writeEntry(Hessian2Output out, String key, Object value) throws IOException {
        out.writeString(key);
        out.writeObject(value);
    }

    public static Head readHead(Hessian2Input in) throws IOException {
        return new Head(in.readString(), in.readString(), in.readString(), in.readString(), in.readString());
    }

    public static Object[] readArguments(Hessian2Input in, MethodSchema method) throws IOException {
        Class<?>[] types = method.parameterTypes();
        Object[] arguments = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            arguments[i] = in.readObject(types[i]);
        }
        return arguments;
    }

    /**
     * The attachments map; a missing map (some peers send none) reads as empty. Keys must be strings, as Dubbo writes
     * them: any other key is refused as soon as it is read, before anything hashes it (a list's hash walks all it
     * holds, and colliding ones make a HashMap quadratic). Values are read like arguments, under the same allow-list
     * and decode budget, so a Dubbo 3 peer's object attachments still arrive.
     */
    public static Map<String, Object> readAttachments(Hessian2Input in) throws IOException {
        if (in.isEnd()) {
            return Collections.emptyMap();
        }
        int tag = in.readMapStart();
        if (tag == 'N') {
            return Collections.emptyMap();
        }
        if (tag == 'M') {
            in.readType(); // a typed map: the attachments are a HashMap whatever the sender's class was
        } else if (tag != 'H') {
            throw new IOException("attachments: expected a map, got hessian tag 0x" + Integer.toHexString(tag));
        }
        Map<String, Object> attachments = new HashMap<>();
        in.addRef(attachments); // as hessian's own map reader does, so that later back-references keep their numbers
        for (int position = 0; !in.isEnd(); position++) {
            Object key = in.readObject();
            if (!(key instanceof String name)) {
                throw new IOException("attachments: key " + position + " is a "
                        + (key == null ? "null" : key.getClass().getName())
                        + ", refused before it is hashed (attachment keys are strings)");
            }
            attachments.put(name, in.readObject());
        }
        in.readMapEnd();
        return attachments;
    }
}
