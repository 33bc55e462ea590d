package io.ferry.rpc.remoting;

/**
 * The body encodings Ferry speaks: Dubbo's {@code serialization} names. One today; an option of this type lets
 * every front end accept Dubbo's attribute with its one valid value and refuse the others alike.
 */
public enum Serialization {
    /** Hessian 2, with Ferry's allow-list: the default of Dubbo 2 and of Dubbo 3's dubbo protocol. */
    HESSIAN2
}
