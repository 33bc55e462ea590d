package io.ferry.rpc.config.extension;

import io.ferry.rpc.Filter;

/**
 * Makes the filter named in a {@code filter} list. Registered in
 * {@code META-INF/services/io.ferry.rpc.config.extension.FilterProvider}. A filter runs on the consumer, the
 * provider or both, as the two methods say: one that returns null for a side cannot be named there.
 * <pre>{@code
 * public final class AuditFilterProvider implements FilterProvider {
 *     public String name() { return "audit"; }
 *     public Filter forService(ServiceContext service) { return new AuditFilter(service.interfaceType()); }
 * }
 * }</pre>
 */
public interface FilterProvider extends Extension {
    /** The filter for one reference, or null when this filter does not run on consumers. */
    default Filter forReference(ReferenceContext reference) {
        return null;
    }

    /** The filter for one service, or null when this filter does not run on providers. */
    default Filter forService(ServiceContext service) {
        return null;
    }

    /**
     * Whether the filter runs where it applies without being named: part of {@code default} in a filter list, so
     * that {@code -default} (or {@code -<name>}) leaves it out. Default false.
     */
    default boolean activeByDefault() {
        return false;
    }
}
