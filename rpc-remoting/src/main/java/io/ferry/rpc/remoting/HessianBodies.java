package io.ferry.rpc.remoting;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import io.ferry.rpc.ClassAllowList;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.SafeSerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.fast.HessianCodec;
import io.netty.buffer.ByteBuf;

import java.io.OutputStream;
import java.util.Collection;
import java.util.List;

/**
 * Hessian2 bodies written and read as Ferry's frames write and read them, for measuring Ferry's codec beside
 * hessian-lite's ({@code HessianFloorBenchmark}): outputs of the configured codec (Ferry's fast path unless
 * {@code -Dferry.serialization.fastpath=false}) and this thread's guarded input, both with the allow-list of the
 * given services. Thread-safe; an output or an input is not.
 */
public final class HessianBodies {
    private final List<Class<?>> services;
    private final SafeSerializerFactory factory;

    private HessianBodies(List<Class<?>> services) {
        this.services = services;
        this.factory = new SafeSerializerFactory(AllowedClasses.forServices(services, ClassAllowList.none()));
    }

    /** Bodies of calls to {@code services}: their types pass the allow-list, as they would for a reference to them. */
    public static HessianBodies forServices(Collection<Class<?>> services) {
        return new HessianBodies(List.copyOf(services));
    }

    /** A new output writing to {@code stream}, as a frame's body is written. */
    public Hessian2Output output(OutputStream stream) {
        Hessian2Output out = HessianCodec.configured().newOutput();
        out.init(stream);
        out.setSerializerFactory(factory);
        return out;
    }

    /** Reads {@code body} from its reader index, as a frame's body is read; give it back with {@link #done}. */
    public Hessian2Input open(ByteBuf body) {
        return GuardedHessian2Input.open(body, factory);
    }

    /** Ends a decode begun with {@link #open}, failed or not. */
    public static void done(Hessian2Input in) {
        ((GuardedHessian2Input) in).release();
    }

    @Override
    public String toString() {
        return "HessianBodies" + services.stream().map(Class::getName).toList() + " (" + HessianCodec.configured()
                + ")";
    }
}
