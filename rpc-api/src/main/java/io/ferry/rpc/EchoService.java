package io.ferry.rpc;

/**
 * Dubbo's health check: every Ferry reference proxy also implements this interface, and every Ferry provider
 * answers it for every exported service by returning the message unchanged.
 * <pre>{@code ((EchoService) greeter).$echo("OK")}</pre>
 */
public interface EchoService {
    /** Returns {@code message} as the provider received it. */
    Object $echo(Object message);
}
