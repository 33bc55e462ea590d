package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.IOException;

/** How the objects of one class are written: prepared once per class, then called per object. */
@FunctionalInterface
interface WritePlan {
    void write(Object value, FastHessian2Output out) throws IOException;
}
