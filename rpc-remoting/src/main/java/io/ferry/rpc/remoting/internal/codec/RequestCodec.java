package io.ferry.rpc.remoting.internal.codec;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.remoting.MethodSchema;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

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

    private RequestCodec() {
    }

    public static void write(Hessian2Output out, String path, String version, MethodSchema method, Object[] arguments,
                             Map<String, Object> attachments) throws IOException {
        out.writeString(Frame.DUBBO_VERSION);
        out.writeString(path);
        out.writeString(version);
        out.writeString(method.name());
        out.writeString(method.descriptor());
        for (Object argument : arguments) {
            out.writeObject(argument);
        }
        out.writeObject(attachments instanceof HashMap ? attachments : new HashMap<>(attachments));
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

    /** The attachments map; a missing map (some peers send none) reads as empty. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readAttachments(Hessian2Input in) throws IOException {
        if (in.isEnd()) {
            return Collections.emptyMap();
        }
        Object map = in.readObject(Map.class);
        if (map == null) {
            return Collections.emptyMap();
        }
        if (!(map instanceof Map)) {
            throw new IOException("attachments: expected a map, got " + map.getClass().getName());
        }
        return (Map<String, Object>) map;
    }
}
