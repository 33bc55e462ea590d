package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.codec.Frame;
import io.ferry.rpc.remoting.internal.codec.InboundFrame;
import io.ferry.rpc.remoting.internal.codec.RequestCodec;
import io.ferry.rpc.remoting.internal.generic.GenericCalls;
import io.ferry.rpc.remoting.internal.generic.PojoMaps;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ProviderService;
import io.ferry.rpc.remoting.internal.service.ServiceSchema;
import io.ferry.rpc.remoting.internal.service.ServiceTable;

import java.io.IOException;
import java.lang.reflect.Type;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Frame to call: reads a request's head, resolves service and method (refusing, before any argument is decoded,
 * a request that names something this provider does not have), then decodes the arguments and attachments against
 * that service's allow-list and works out the deadline from the consumer's {@code _TO}, counted from receipt.
 */
final class RequestDecoder {
    private final ServiceTable services;
    private final Ticker ticker;

    RequestDecoder(ServiceTable services, Ticker ticker) {
        this.services = services;
        this.ticker = ticker;
    }

    /**
     * @param receivedNanos when the frame arrived, on this decoder's ticker
     * @param local         this end's address, for "not found" messages
     * @throws Rejection    the request names a service or method this provider does not have
     * @throws IOException  the body is malformed or names a class the service does not allow
     */
    DecodedRequest decode(InboundFrame frame, long receivedNanos, SocketAddress local) throws IOException {
        GuardedHessian2Input in = GuardedHessian2Input.open(frame.body(), SafeSerializerFactory.jdkOnly());
        try {
            return decode(in, receivedNanos, local);
        } finally {
            in.release();
        }
    }

    private DecodedRequest decode(GuardedHessian2Input in, long receivedNanos, SocketAddress local)
            throws IOException {
        RequestCodec.Head head = RequestCodec.readHead(in);
        ServiceSchema schema = services.schema(head.path(), head.version());
        if (schema == null) {
            throw new Rejection(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.SERVICE_NOT_FOUND_PREFIX + head.path()
                    + ":" + head.version() + " on " + local
                    + (services.schema(head.path()) != null ? ", may be version mismatch" : ""));
        }
        in.setSerializerFactory(schema.serializerFactory());
        boolean echo = ServiceSchema.ECHO_METHOD.equals(head.method())
                && ServiceSchema.ECHO_DESCRIPTOR.equals(head.descriptor());
        MethodSchema method = echo ? null : schema.method(head.method(), head.descriptor());
        if (method == null && GenericCalls.isGeneric(head.method(), head.descriptor())) {
            return decodeGeneric(in, head, schema, receivedNanos, local);
        }
        if (method == null && !echo) {
            throw new Rejection(RpcStatus.METHOD_NOT_FOUND, RpcStatus.METHOD_NOT_FOUND_PREFIX + head.path() + "."
                    + head.method() + "(" + head.descriptor() + ")" + (schema.hasMethodNamed(head.method())
                    ? ": no overload with these parameter types" : ""));
        }
        Object[] arguments = echo ? new Object[] {in.readObject()} : RequestCodec.readArguments(in, method);
        Map<String, Object> attachments = RequestCodec.readAttachments(in);
        return request(head, method, echo, arguments, attachments, receivedNanos, local, false, false);
    }

    private DecodedRequest request(RequestCodec.Head head, MethodSchema method, boolean echo, Object[] arguments,
                                   Map<String, Object> attachments, long receivedNanos, SocketAddress local,
                                   boolean generic, boolean generalizeResult) throws Rejection {
        // as in Dubbo, attachment entries win over the head's strings
        String version = attachments.get("version") instanceof String v ? v : head.version();
        String group = attachments.get("group") instanceof String g ? g : "";
        ProviderService service = services.find(head.path(), version, group);
        if (service == null) {
            throw new Rejection(RpcStatus.SERVICE_NOT_FOUND, RpcStatus.SERVICE_NOT_FOUND_PREFIX
                    + (group.isEmpty() ? "" : group + "/") + head.path() + ":" + version + " on "
                    + local + ", may be version or group mismatch");
        }
        return new DecodedRequest(service, method, echo, arguments, attachments,
                Frame.supportsResponseAttachments(head.protocolVersion()), deadline(attachments, receivedNanos),
                "0.0.0".equals(version) ? "" : version, generic, generalizeResult);
    }

    /**
     * Dubbo's generic call, {@code $invoke(name, types, args)} on a service that has no such method itself: the
     * real method is found by name and parameter types, and each argument, a map for a POJO, becomes its declared
     * type through the service's allow-list ({@link PojoMaps.Realizer}). A class the allow-list refuses fails the
     * request before anything of it is made.
     */
    private DecodedRequest decodeGeneric(GuardedHessian2Input in, RequestCodec.Head head, ServiceSchema schema,
                                         long receivedNanos, SocketAddress local) throws IOException {
        Object name = in.readObject(String.class);
        Object types = in.readObject(String[].class);
        Object values = in.readObject(Object[].class);
        Map<String, Object> attachments = RequestCodec.readAttachments(in);
        boolean generalize;
        try {
            generalize = GenericCalls.generalizesResult(attachments.get(GenericCalls.ATTACHMENT));
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage());
        }
        if (!(name instanceof String methodName) || methodName.isBlank()) {
            throw new IOException(head.method() + ": the method name is " + (name == null ? "null"
                    : "a " + name.getClass().getName()) + " (expected: a method's name)");
        }
        if (types != null && !(types instanceof String[]) || values != null && !(values instanceof Object[])) {
            throw new IOException(head.method() + ": expected (String, String[], Object[])");
        }
        methodName = methodName.trim();
        MethodSchema method = genericTarget(schema, head.path(), methodName, (String[]) types);
        Object[] arguments = values == null ? new Object[0] : (Object[]) values;
        Type[] parameters = method.method().getGenericParameterTypes();
        if (arguments.length != parameters.length) {
            throw new IOException(method.description() + ": " + arguments.length + " arguments (expected: "
                    + parameters.length + ")");
        }
        Object[] realized = new Object[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            realized[i] = schema.realizer().realize(arguments[i], parameters[i],
                    method.description() + " argument " + i);
        }
        return request(head, method, false, realized, attachments, receivedNanos, local, true, generalize);
    }

    /** The method a generic call names; a miss is answered as a missing method. */
    private static MethodSchema genericTarget(ServiceSchema schema, String path, String name, String[] types)
            throws Rejection {
        MethodSchema method;
        String shownTypes;
        if (types == null) {
            // Dubbo's rule: without types, the name alone must be unique
            method = schema.onlyMethodNamed(name);
            shownTypes = "";
        } else {
            String descriptor;
            try {
                descriptor = GenericCalls.descriptor(types);
            } catch (IllegalArgumentException e) {
                throw new Rejection(RpcStatus.BAD_REQUEST, "generic call of " + path + "." + name + ": "
                        + e.getMessage());
            }
            method = schema.method(name, descriptor);
            shownTypes = String.join(", ", types);
        }
        if (method == null) {
            throw new Rejection(RpcStatus.METHOD_NOT_FOUND, RpcStatus.METHOD_NOT_FOUND_PREFIX + path + "." + name
                    + "(" + shownTypes + ")" + (schema.hasMethodNamed(name)
                    ? ": no overload with these parameter types" : ": No such method " + name + " in class "
                    + "interface " + path));
        }
        return method;
    }

    /** The consumer's remaining time ({@code _TO}, Integer ms) counted from receipt; none when it sent none. */
    private Deadline deadline(Map<String, Object> attachments, long receivedNanos) {
        Object left = attachments.get(RequestCodec.TIME_LEFT);
        if (left instanceof Number n) {
            long millis = n.longValue();
            return Deadline.startingAt(receivedNanos, TimeUnit.MILLISECONDS.toNanos(Math.max(millis, 0)), ticker);
        }
        return Deadline.none();
    }

    /** A request that names something this provider does not have: answered with its status. */
    static final class Rejection extends IOException {
        private static final long serialVersionUID = 1L;
        final RpcStatus status;

        Rejection(RpcStatus status, String message) {
            super(message);
            this.status = status;
        }
    }
}
