package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Deadline;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.remoting.internal.service.MethodSchema;
import io.ferry.rpc.remoting.internal.service.ProviderService;

import java.util.Map;

/**
 * A request as {@link RequestDecoder} read it: the service and method it names, its arguments and attachments, and
 * its deadline counted from receipt.
 *
 * @param method                  null for {@code $echo}
 * @param withResponseAttachments whether the consumer's protocol version reads attachments in answers
 * @param version                 the service version asked for, "" for none
 * @param generic                 a generic call ({@code $invoke}): its exception goes back as Dubbo's GenericException
 * @param generalizeResult        a generic call whose result goes back in Dubbo's generic form (not raw.return)
 */
record DecodedRequest(ProviderService service, MethodSchema method, boolean echo, Object[] arguments,
                      Map<String, Object> attachments, boolean withResponseAttachments, Deadline deadline,
                      String version, boolean generic, boolean generalizeResult) {

    Invocation invocation(boolean oneway) {
        return new Invocation(service.schema().name(), version, service.group(), method.method(), arguments,
                attachments, deadline, oneway, null);
    }

    /** "Interface.method", for messages. */
    String describe() {
        return echo ? "$echo" : service.schema().type().getSimpleName() + "." + method.name();
    }
}
