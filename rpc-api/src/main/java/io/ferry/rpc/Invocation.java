package io.ferry.rpc;

import java.lang.reflect.Method;
import java.util.Map;

/**
 * One call of one method: what the consumer asks and what the provider runs.
 *
 * @param service      the service interface's name
 * @param method       the interface method called
 * @param arguments    the arguments, never null (empty for none)
 * @param attachments  key-value pairs sent beside the call, never null
 */
public record Invocation(String service, Method method, Object[] arguments, Map<String, Object> attachments) {
}
