package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.Deserializer;

import java.io.IOException;

/**
 * Wraps a hessian deserializer so that a small body cannot make it allocate much or recurse deeply: lengths claimed
 * by the sender (arrays, lists, field counts) must fit in the bytes still present (each element takes at least one
 * byte), and every nested value counts towards {@link GuardedHessian2Input#MAX_DEPTH}.
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

    private void enter(AbstractHessianInput in) throws IOException {
        GuardedHessian2Input g = guarded(in);
        if (g != null) {
            g.enter();
        }
    }

    private void exit(AbstractHessianInput in) {
        GuardedHessian2Input g = guarded(in);
        if (g != null) {
            g.exit();
        }
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
        enter(in);
        try {
            return delegate.readObject(in);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        enter(in);
        try {
            return delegate.readList(in, length);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        checkLength(in, length);
        enter(in);
        try {
            return delegate.readLengthList(in, length);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        enter(in);
        try {
            return delegate.readMap(in);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object[] createFields(int len) {
        // Field counts come from the stream too; each field name takes at least one byte. Unchecked callers
        // (no guarded input in sight here) still get hessian's behaviour.
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
        enter(in);
        try {
            return delegate.readObject(in, fields);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        enter(in);
        try {
            return delegate.readObject(in, fieldNames);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        enter(in);
        try {
            return delegate.readList(in, length, expectType);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        checkLength(in, length);
        enter(in);
        try {
            return delegate.readLengthList(in, length, expectType);
        } finally {
            exit(in);
        }
    }

    @Override
    public Object readMap(AbstractHessianInput in, Class<?> expectKeyType, Class<?> expectValueType)
            throws IOException {
        enter(in);
        try {
            return delegate.readMap(in, expectKeyType, expectValueType);
        } finally {
            exit(in);
        }
    }
}
