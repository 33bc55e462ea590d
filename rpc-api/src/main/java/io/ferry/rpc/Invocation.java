package io.ferry.rpc;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * One call of one method: what the consumer asks and what the provider runs. Made once per call, at the proxy on
 * the consumer and on receipt on the provider, and passed unchanged down the chain; retries reuse it, so every
 * attempt shares its one {@link #deadline()}.
 *
 * @param service     the service interface's fully qualified name
 * @param version     the service version, "" for none
 * @param group       the service group, "" for none
 * @param method      the interface method called ({@code EchoService.$echo} for the health check)
 * @param arguments   the arguments, never null (empty for none)
 * @param attachments key-value pairs sent beside the call; filters may add to it before the call is sent
 * @param deadline    when the whole call must have ended, retries included; {@link Deadline#none()} for none
 * @param oneway      true: no answer is expected; the call completes when its request is written
 * @param executor    where the call's completion runs on the consumer (never an IO thread); unused on the provider
 */
public record Invocation(String service, String version, String group, Method method, Object[] arguments,
                         Map<String, Object> attachments, Deadline deadline, boolean oneway, Executor executor) {

    public Invocation {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(attachments, "attachments");
        Objects.requireNonNull(deadline, "deadline");
        version = version == null ? "" : version;
        group = group == null ? "" : group;
    }

    /** Dubbo's service key: {@code [group/]interface[:version]}. */
    public String serviceKey() {
        return (group.isEmpty() ? "" : group + "/") + service + (version.isEmpty() ? "" : ":" + version);
    }

    /** "Interface.method", for messages. */
    public String description() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    /** The same call with another deadline (a nested call bounded by the request it serves). */
    public Invocation withDeadline(Deadline deadline) {
        return new Invocation(service, version, group, method, arguments, attachments, deadline, oneway, executor);
    }

    /** The same call with other attachments (one attempt's, with what that provider alone must be sent). */
    public Invocation withAttachments(Map<String, Object> attachments) {
        return new Invocation(service, version, group, method, arguments, attachments, deadline, oneway, executor);
    }

    /**
     * The call for diagnostics: service, method, how many arguments and of what type, attachments by their keys only
     * (a value may be a credential, such as Dubbo's {@code token}), the deadline. Argument values are left out: they
     * are the caller's data, of any size.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Invocation ").append(serviceKey());
        sb.append('.').append(method.getName()).append('(');
        for (int i = 0; i < arguments.length; i++) {
            sb.append(i > 0 ? ", " : "").append(arguments[i] == null ? "null" : arguments[i].getClass().getSimpleName());
        }
        return sb.append(") attachments=").append(attachments.keySet()).append(", ").append(deadline)
                .append(oneway ? ", one-way" : "").toString();
    }
}
