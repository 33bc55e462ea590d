package io.ferry.rpc;

import java.util.concurrent.CompletableFuture;

/**
 * Calls any method of a remote service without its interface on the class path, as Dubbo's
 * {@code org.apache.dubbo.rpc.service.GenericService} does, with the same bytes on the wire: the method {@code $invoke}
 * (or {@code $invokeAsync}) with the real method's name, its parameter type names and the arguments, and the
 * attachment {@code generic=true}. Get one from {@code ReferenceConfig.generic("com.acme.UserService")}.
 *
 * <p>POJOs travel as {@code Map}s: an argument is a map of its properties, with the key {@code class} naming its class
 * where the parameter's declared type does not say it (a subtype, or a parameter of type {@code Object}); enums as
 * their names; {@code LocalDate}, {@code LocalDateTime} and {@code LocalTime} as their ISO text. A result comes back
 * the same way: strings, numbers, dates and collections as they are, every other object as a {@code HashMap} of its
 * properties with {@code class} naming its class.
 *
 * <p>A call has a reference's deadline, retries, filters and observation like any other. The service's exceptions
 * arrive as a {@link GenericException} that names the exception's class and keeps its message, as Dubbo 3 providers
 * (and Ferry's) send them; a framework failure (a timeout, a missing method, a class the provider refuses) is an
 * {@link RpcException}.
 */
public interface GenericService {
    /**
     * Calls {@code method} and waits for its result.
     *
     * @param method         the method's name, e.g. {@code getUser}
     * @param parameterTypes the declared parameter types, by name: {@code "long"}, {@code "java.lang.String"},
     *                       {@code "com.acme.User"}, {@code "int[]"}; empty for none
     * @param args           the arguments, POJOs as maps; empty for none
     * @return the result, POJOs as maps; null for a {@code void} method
     * @throws GenericException the service's exception, by its class's name and its message
     * @throws RpcException     what failed in the framework: timeout, no provider, a method the provider lacks
     */
    Object $invoke(String method, String[] parameterTypes, Object[] args) throws GenericException;

    /**
     * As {@link #$invoke}, without waiting: the future completes with the result, or with the exception. A Ferry
     * reference sends it as Dubbo's {@code $invokeAsync}; this default, for implementations of your own (a stub in a
     * test), runs {@link #$invoke}.
     */
    @SuppressWarnings("unchecked")
    default CompletableFuture<Object> $invokeAsync(String method, String[] parameterTypes, Object[] args)
            throws GenericException {
        Object result = $invoke(method, parameterTypes, args);
        return result instanceof CompletableFuture<?> future ? (CompletableFuture<Object>) future
                : CompletableFuture.completedFuture(result);
    }
}
