package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.Deserializer;

import java.io.IOException;

/**
 * Wraps a hessian deserializer so that a small body cannot make it allocate much: lengths claimed by the sender
 * for arrays and lists must fit in the bytes still present (each element takes at least one byte), and a class
 * definition may name at most 65,536 fields. Nesting depth is bounded by {@link GuardedHessian2Input} itself.
 */
final class GuardedDeserializer implements Deserializer {
    private final Deserializer delegate;

    private GuardedDeserializer(Deserializer delegate) {
        this.delegate = delegate;
    }

    static Deserializer wrap(Deserializer deserializer) {
        if (deserializer == null || deserializer instanceof GuardedDeserializer) {
            return deserializer;
        }
        return new GuardedDeserializer(deserializer);
    }

    private static GuardedHessian2Input guarded(AbstractHessianInput in) {
        return in instanceof GuardedHessian2Input g ? g : null;
    }

    private void checkLength(AbstractHessianInput in, int length) throws IOException {
        GuardedHessian2Input g = guarded(in);
        if (g != null) {
            g.checkClaimedLength(length, delegate.getType().getName());
        }
    }

    @Override
    public Class<?> getType() {
        return delegate.getType();
    }

    @Override
    public boolean isReadResolve() {
        return delegate.isReadResolve();
    }

    @Override
    public Object readObject(AbstractHessianInput in) throws IOException {
        return delegate.readObject(in);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        return delegate.readList(in, length);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        checkLength(in, length);
        return delegate.readLengthList(in, length);
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        return delegate.readMap(in);
    }

    @Override
    public Object[] createFields(int len) {
        // hessian allocates this many field slots before reading any name: cap it (no input in sight here)
        if (len < 0 || len > 65_536) {
            throw new IllegalArgumentException("class definition claims " + len + " fields");
        }
        return delegate.createFields(len);
    }

    @Override
    public Object createField(String name) {
        return delegate.createField(name);
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        return delegate.readObject(in, fields);
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        return delegate.readObject(in, fieldNames);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        return delegate.readList(in, length, expectType);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        checkLength(in, length);
        return delegate.readLengthList(in, length, expectType);
    }

    @Override
    public Object readMap(AbstractHessianInput in, Class<?> expectKeyType, Class<?> expectValueType)
            throws IOException {
        return delegate.readMap(in, expectKeyType, expectValueType);
    }
}
