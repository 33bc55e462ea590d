package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.CollectionDeserializer;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import com.alibaba.com.caucho.hessian.io.MapDeserializer;
import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import com.alibaba.com.caucho.hessian.io.UnsafeDeserializer;
import io.ferry.rpc.remoting.internal.serialize.fast.HessianCodec;
import io.ferry.rpc.remoting.internal.serialize.fast.PojoReader;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * hessian-lite's factory with three changes that make decoding safe for bytes from an untrusted peer:
 * <ul>
 *   <li>every type name from the stream passes {@link AllowedClasses} first, and a rejection <em>throws</em>
 *       (hessian-lite on its own swallows a class it cannot load and quietly builds a HashMap instead);</li>
 *   <li>every deserializer it hands out is wrapped in a {@link GuardedDeserializer}, which checks claimed lengths
 *       against the bytes present and bounds the nesting depth;</li>
 *   <li>maps and sets check each key before they hash it ({@link GuardedMapDeserializer},
 *       {@link GuardedSetDeserializer}, {@link HashedKeys}), hessian-lite's fallback HashMap reader included;</li>
 *   <li>Throwables and stack trace elements travel through their public API ({@link ThrowableSerializer}), so
 *       exceptions cross the wire on JDK 17+ without {@code --add-opens}.</li>
 * </ul>
 * With the {@link HessianCodec#FERRY} codec, objects hessian-lite would read with its unsafe deserializer are read by
 * a {@link PojoReader} of their class instead: the same values, less work per field.
 * Thread-safe; one instance per set of services, reused across calls.
 */
public final class SafeSerializerFactory extends SerializerFactory {
    private static final SafeSerializerFactory JDK_ONLY = new SafeSerializerFactory(AllowedClasses.jdkOnly());

    private final AllowedClasses allowed;
    private final boolean unknownAsMaps;
    private final HessianCodec codec;
    /** A ClassValue rather than a map: it is looked up for every value read by class (each Date field, say). */
    private final ClassValue<Deserializer> byClass = new ClassValue<>() {
        @Override
        protected Deserializer computeValue(Class<?> cl) {
            try {
                return guardedDeserializer(cl);
            } catch (HessianProtocolException e) {
                throw new Refused(e); // not cached: the next lookup tries again, as before
            }
        }
    };
    private final Map<String, Deserializer> byName = new ConcurrentHashMap<>();
    /**
     * hessian-lite's own deserializers (its list reader, say) wrapped once each, rather than once per list read. They
     * are hessian-lite's cached instances, so few; the map stops growing at {@link #MOST_WRAPPED} all the same.
     */
    private final Map<Deserializer, Deserializer> wrapped = new ConcurrentHashMap<>();
    private static final int MOST_WRAPPED = 256;

    public SafeSerializerFactory(AllowedClasses allowed) {
        this(allowed, false, HessianCodec.configured());
    }

    /** Reading objects with {@code codec}'s readers rather than the configured codec's: to compare the two. */
    public SafeSerializerFactory(AllowedClasses allowed, HessianCodec codec) {
        this(allowed, false, codec);
    }

    private SafeSerializerFactory(AllowedClasses allowed, boolean unknownAsMaps, HessianCodec codec) {
        super(SafeSerializerFactory.class.getClassLoader());
        this.allowed = allowed;
        this.unknownAsMaps = unknownAsMaps;
        this.codec = codec;
        // The allow-list is the gate; requiring java.io.Serializable on top adds nothing but friction.
        setAllowNonSerializable(true);
    }

    /**
     * For a generic caller, which has none of the service's classes: an object of a class this side does not allow
     * is read as a map of its fields, with {@code class} naming it, instead of being refused. Nothing of the class is
     * loaded or made; its fields pass the same checks, one by one.
     */
    public static SafeSerializerFactory unknownAsMaps(AllowedClasses allowed) {
        return new SafeSerializerFactory(allowed, true, HessianCodec.configured());
    }

    /** The shared factory for frames that carry no application types: error strings, events, request heads. */
    public static SafeSerializerFactory jdkOnly() {
        return JDK_ONLY;
    }

    public AllowedClasses allowed() {
        return allowed;
    }

    @Override
    public Class<?> loadSerializedClass(String className) throws ClassNotFoundException {
        if (!allowed.allows(className)) {
            throw new ClassNotFoundException("class not allowed for deserialization: "
                    + AllowedClasses.shown(className));
        }
        Class<?> loaded = super.loadSerializedClass(className);
        if (loaded == java.util.HashMap.class && !"java.util.HashMap".equals(className)) {
            // hessian-lite's own deny list answers HashMap for a class it refuses: refuse it loudly instead
            throw new ClassNotFoundException("class refused by hessian-lite's deny list: "
                    + AllowedClasses.shown(className));
        }
        return loaded;
    }

    @Override
    public Serializer getSerializer(Class cl) throws HessianProtocolException {
        if (Throwable.class.isAssignableFrom(cl)) {
            return ThrowableSerializer.forClass(cl);
        }
        if (cl == StackTraceElement.class) {
            return StackTraceElementCodec.SERIALIZER;
        }
        return super.getSerializer(cl);
    }

    /** Carries a checked refusal out of the ClassValue. */
    private static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(HessianProtocolException cause) {
            super(cause);
        }
    }

    @Override
    public Deserializer getDeserializer(Class cl) throws HessianProtocolException {
        try {
            return byClass.get(cl);
        } catch (Refused e) {
            throw (HessianProtocolException) e.getCause();
        }
    }

    private Deserializer guardedDeserializer(Class<?> cl) throws HessianProtocolException {
        Deserializer raw;
        if (Throwable.class.isAssignableFrom(cl)) {
            raw = new ThrowableDeserializer(cl);
        } else if (cl == StackTraceElement.class) {
            raw = StackTraceElementCodec.DESERIALIZER;
        } else {
            raw = super.getDeserializer(cl);
            if (codec == HessianCodec.FERRY && raw != null && raw.getClass() == UnsafeDeserializer.class) {
                raw = PojoReader.of(cl, raw);
            }
        }
        return GuardedDeserializer.wrap(raw);
    }

    @Override
    public Deserializer getDeserializer(String type) throws HessianProtocolException {
        if (type == null || type.isEmpty()) {
            return null;
        }
        Deserializer cached = byName.get(type);
        if (cached != null) {
            return cached;
        }
        if (unknownAsMaps && type.charAt(0) != '[' && !allowed.allows(type)) {
            Deserializer asMap = GuardedDeserializer.wrap(new ClassMapDeserializer(type,
                    getDeserializer(HashMap.class)));
            byName.put(type, asMap);
            return asMap;
        }
        allowed.check(type);
        String element = type.replaceFirst("^\\[+", "");
        if (element.indexOf('.') >= 0) {
            // resolve it here, so that hessian-lite neither caches a miss forever nor logs the peer's string
            try {
                loadSerializedClass(element);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new HessianProtocolException("class not found: " + AllowedClasses.shown(element));
            }
        }
        Deserializer raw = super.getDeserializer(type);
        if (raw == null) {
            throw new HessianProtocolException("class not found: " + AllowedClasses.shown(type));
        }
        Deserializer guarded = GuardedDeserializer.wrap(raw);
        byName.put(type, guarded);
        return guarded;
    }

    /** hessian-lite's own readers, but a map or set checks each key before it hashes it. */
    @Override
    protected Deserializer loadDeserializer(Class cl) throws HessianProtocolException {
        Deserializer loaded = super.loadDeserializer(cl);
        if (loaded.getClass() == MapDeserializer.class) {
            return new GuardedMapDeserializer(cl);
        }
        if (loaded.getClass() == CollectionDeserializer.class && Set.class.isAssignableFrom(cl)) {
            return new GuardedSetDeserializer(cl);
        }
        return loaded;
    }

    /** A map with no type or an empty one: hessian-lite would fall back to an unchecked HashMap reader. */
    @Override
    public Object readMap(AbstractHessianInput in, String type) throws IOException {
        Deserializer typed = getDeserializer(type);
        return (typed != null ? typed : getDeserializer(HashMap.class)).readMap(in);
    }

    @Override
    public Deserializer getObjectDeserializer(String type, Class cl) throws HessianProtocolException {
        return guarded(super.getObjectDeserializer(type, cl));
    }

    /** As hessian-lite's, falling back to the checked HashMap reader rather than its own. */
    @Override
    public Deserializer getObjectDeserializer(String type) throws HessianProtocolException {
        Deserializer typed = getDeserializer(type);
        return typed != null ? typed : getDeserializer(HashMap.class);
    }

    @Override
    public Deserializer getListDeserializer(String type, Class cl) throws HessianProtocolException {
        return guarded(super.getListDeserializer(type, cl));
    }

    @Override
    public Deserializer getListDeserializer(String type) throws HessianProtocolException {
        return guarded(super.getListDeserializer(type));
    }

    private Deserializer guarded(Deserializer raw) {
        if (raw == null || raw instanceof GuardedDeserializer) {
            return raw;
        }
        Deserializer known = wrapped.get(raw);
        if (known != null) {
            return known;
        }
        Deserializer guarded = GuardedDeserializer.wrap(raw);
        if (wrapped.size() < MOST_WRAPPED) {
            wrapped.putIfAbsent(raw, guarded);
        }
        return guarded;
    }
}
