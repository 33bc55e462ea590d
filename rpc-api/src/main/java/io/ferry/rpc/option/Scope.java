package io.ferry.rpc.option;

/**
 * Where an option may be set. A narrower scope wins over a wider one for the calls it covers: a method's setting
 * over its reference's or service's, theirs over the consumer's or provider's defaults.
 */
public enum Scope {
    APPLICATION, REGISTRY, PROTOCOL, SSL, PROVIDER, CONSUMER, SERVICE, REFERENCE, METHOD;

    /** The name used in XML elements and properties keys. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
