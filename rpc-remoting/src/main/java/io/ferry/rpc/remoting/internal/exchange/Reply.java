package io.ferry.rpc.remoting.internal.exchange;

import java.util.Collections;
import java.util.Map;

/** A successful call's value and the attachments that came with it. */
public record Reply(Object value, Map<String, Object> attachments) {
    public static final Reply EMPTY = new Reply(null, Collections.emptyMap());
}
