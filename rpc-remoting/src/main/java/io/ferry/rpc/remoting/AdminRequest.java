package io.ferry.rpc.remoting;

import java.util.Map;

/**
 * One request to the admin port, as a route's handler sees it. The body, which no route reads, is not kept.
 *
 * @param method the HTTP method
 * @param path   the decoded path, without the query
 * @param query  the query's parameters, each with its first value
 * @param remote the peer's address, for messages
 */
public record AdminRequest(String method, String path, Map<String, String> query, String remote) {
    public AdminRequest {
        query = Map.copyOf(query);
    }

    /** A query parameter's value, or null when the query has none of that name. */
    public String parameter(String name) {
        return query.get(name);
    }
}
