package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;
import io.ferry.rpc.remoting.internal.serialize.fast.HessianCodec;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

import java.io.IOException;
import java.io.InputStream;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;

/**
 * A hessian2 reader over one frame body that knows how many bytes are left, how deep it is and what it has read,
 * so that {@link GuardedDeserializer} can refuse a claimed length the body cannot hold, nesting past a bound, and a
 * body over its {@link DecodeBudget}; and so that maps and sets can tell a key built from back-references
 * ({@link HashedKeys}). With the {@link HessianCodec#FERRY} codec it reads strings itself ({@link HessianStrings}),
 * everything else through hessian-lite, the checks alike. Not thread-safe: one per decode, either made for it or
 * taken from this thread's with {@link #open} and given back with {@link #release}.
 */
public final class GuardedHessian2Input extends Hessian2Input {
    /** Deepest nesting of objects, lists and maps accepted; far beyond any real value, far below a stack overflow. */
    public static final int MAX_DEPTH = 256;
    /** Hessian2Input reads ahead into a buffer of its own; this many bytes may sit there besides the stream's. */
    private static final int READ_AHEAD = 1024;
    /**
     * A body larger than this is decoded by an input that is then dropped, not kept for the thread: the scratch a
     * large string grows (here and in hessian-lite's own builder) must not stay with every pool thread.
     */
    static final int LARGEST_REUSED_BODY = 64 * 1024;
    /** A reused input's reference table longer than this is dropped after its body rather than kept. */
    private static final int KEPT_REFERENCES = 1024;

    /**
     * One input per thread, reused: hessian-lite's input carries a 1 KiB read-ahead buffer and four collections,
     * more than the values of a small call. A decode while this thread's is in use gets one of its own.
     */
    private static final FastThreadLocal<GuardedHessian2Input> REUSED = new FastThreadLocal<>() {
        @Override
        protected GuardedHessian2Input initialValue() {
            GuardedHessian2Input reused = new GuardedHessian2Input(HessianCodec.configured());
            reused.definitions = reused.strings == null ? null : ClassDefinitions.create();
            return reused;
        }
    };

    private final BodyStream stream;
    private ByteBuf body;
    private DecodeBudget budget;
    private BackReferences refs;
    /** Null with hessian-lite's codec. */
    private final HessianStrings strings;
    private boolean inUse;
    /** The class definitions read lately: only in a reused input with Ferry's codec, else null. */
    private ClassDefinitions definitions;
    private int bodyBytes;

    /** Reads {@code body} from its reader index with the configured codec; the buffer stays the caller's. */
    public GuardedHessian2Input(ByteBuf body, SafeSerializerFactory factory) {
        this(body, factory, HessianCodec.configured());
    }

    /** Reads {@code body} from its reader index with {@code codec}; the buffer's ownership stays with the caller. */
    public GuardedHessian2Input(ByteBuf body, SafeSerializerFactory factory, HessianCodec codec) {
        this(codec);
        attach(body, factory);
    }

    private GuardedHessian2Input(HessianCodec codec) {
        this(new BodyStream(), codec);
    }

    private GuardedHessian2Input(BodyStream stream, HessianCodec codec) {
        super(stream);
        this.stream = stream;
        this.strings = codec == HessianCodec.FERRY ? new HessianStrings(this) : null;
    }

    /**
     * This thread's input, reading {@code body} from its reader index with the configured codec; give it back with
     * {@link #release} when the decode is over, failed or not. The buffer stays the caller's.
     */
    public static GuardedHessian2Input open(ByteBuf body, SafeSerializerFactory factory) {
        if (HessianCodec.configured() != HessianCodec.FERRY || body.readableBytes() > LARGEST_REUSED_BODY) {
            return new GuardedHessian2Input(body, factory); // hessian-lite's way, or a body too large to keep for
        }
        GuardedHessian2Input reused = REUSED.get();
        if (reused.inUse) {
            return new GuardedHessian2Input(body, factory);
        }
        reused.inUse = true;
        reused.attach(body, factory);
        return reused;
    }

    /** Ends a decode begun with {@link #open}: drops the body and every value read, so nothing outlives it. */
    public void release() {
        if (refs != null && refs.size() > KEPT_REFERENCES) {
            refs = null; // a large body's table (and budget) is not kept for the thread: the next body makes new ones
        }
        stream.attach(null);
        body = null;
        reset(); // the references, class definitions and types: the values read
        inUse = false;
    }

    /** Starts afresh on {@code next}: no references, class definitions, types, buffered bytes or budget left. */
    private void attach(ByteBuf next, SafeSerializerFactory factory) {
        stream.attach(next);
        body = next;
        bodyBytes = next.readableBytes();
        init(stream);
        try {
            resetBuffer();
        } catch (IllegalStateException leftOver) {
            // the last decode stopped before the end of its body: its bytes are dropped all the same
        }
        if (refs == null) {
            budget = new DecodeBudget();
            // hessian-lite follows a back-reference inline, as _refs.get(i): the one place to see them all
            refs = new BackReferences(budget);
        } else {
            budget.reset(); // a reused input: the same budget and table, emptied (init above cleared the table)
        }
        this._refs = refs;
        setSerializerFactory(factory);
    }

    /** An upper bound of the bytes not yet decoded. */
    int remainingBytesAtMost() {
        return body.readableBytes() + READ_AHEAD;
    }

    void checkClaimedLength(int length, String what) throws HessianProtocolException {
        if (length < 0 || length > remainingBytesAtMost()) {
            throw new HessianProtocolException(what + " claims " + length + " elements but the body has at most "
                    + remainingBytesAtMost() + " bytes left");
        }
    }

    /** The next byte, left to be read; -1 at the end of the body. */
    public int peekTag() throws IOException {
        int tag = read();
        if (tag >= 0) {
            unread();
        }
        return tag;
    }

    /** Values read so far, each counted once for every place a back-reference repeats it. */
    public long valuesRead() {
        return budget.values();
    }

    /** Back-references followed so far. */
    public long backReferencesFollowed() {
        return budget.backReferences();
    }

    @Override
    public int addRef(Object ref) {
        int index = super.addRef(ref);
        budget.referenceAdded(index);
        return index;
    }

    /**
     * Read now, whole: hessian-lite's stream reads lazily through this input, which after the decode reads nothing
     * (or, reused, another call's body). Bounded by the body, like every value.
     */
    @Override
    public InputStream readInputStream() throws IOException {
        InputStream lazy = super.readInputStream();
        return lazy == null ? null : new ByteArrayInputStream(lazy.readAllBytes());
    }

    @Override
    public String readString() throws IOException {
        if (strings == null) {
            return super.readString();
        }
        int tag = read();
        if (HessianStrings.isStringTag(tag)) {
            return strings.read(tag);
        }
        if (tag >= 0) {
            unread(); // not a string: a null, a number... which hessian-lite turns into one
        }
        return super.readString();
    }

    // Every nested value, whichever deserializer reads it, comes back through one of these.

    @Override
    public Object readObject() throws IOException {
        enter();
        Object value;
        try {
            value = strings == null ? super.readObject() : readAnyObject();
        } catch (Throwable t) {
            abandon();
            throw t;
        }
        return exit(value);
    }

    @Override
    public Object readObject(Class cl) throws IOException {
        enter();
        Object value;
        try {
            value = definitions != null && peekTag() == ClassDefinitions.DEFINITION
                    ? readDefinedObject(cl, null) : super.readObject(cl);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
        return exit(value);
    }

    @Override
    public Object readObject(Class cl, Class<?>... expectedTypes) throws IOException {
        enter();
        Object value;
        try {
            value = definitions != null && peekTag() == ClassDefinitions.DEFINITION
                    ? readDefinedObject(cl, expectedTypes) : super.readObject(cl, expectedTypes);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
        return exit(value);
    }

    /** A string by {@link HessianStrings}, anything else by hessian-lite. */
    private Object readAnyObject() throws IOException {
        int tag = read();
        if (HessianStrings.isStringTag(tag)) {
            return strings.read(tag);
        }
        if (tag >= 0) {
            unread();
        }
        if (tag == ClassDefinitions.DEFINITION && definitions != null) {
            return readDefinedObject(null, null);
        }
        return super.readObject();
    }

    /**
     * At a class definition: the object after it, with the definition registered from memory when these bytes were
     * read before with the factory now in use, else read by hessian-lite and remembered ({@link ClassDefinitions}).
     * A remembered definition is followed as hessian-lite follows one it has just read: by reading the value after
     * it through this input's {@code readObject()} or {@code readObject(cl)} (the expected types dropped), so the
     * depth, the budget and the value are what they would have been.
     */
    private Object readDefinedObject(Class<?> cl, Class<?>[] expectedTypes) throws IOException {
        SerializerFactory current = findSerializerFactory();
        if (definitions.reuse(this, current)) {
            return cl == null ? readObject() : readObject(cl);
        }
        byte[] key = definitions.bytesAhead(this);
        int index = ClassDefinitions.registered(this);
        Object value = cl == null ? super.readObject()
                : expectedTypes == null ? super.readObject(cl) : super.readObject(cl, expectedTypes);
        if (key != null) {
            definitions.remember(this, index, key, current);
        }
        return value;
    }

    private void enter() throws HessianProtocolException {
        if (budget.depth() == MAX_DEPTH) {
            throw new HessianProtocolException("value nested deeper than " + MAX_DEPTH + " levels");
        }
        budget.open();
    }

    private Object exit(Object value) throws HessianProtocolException {
        budget.close();
        return value;
    }

    private void abandon() {
        budget.abandon();
    }

    /** The reference table, counting the back-references hessian follows through it. */
    private static final class BackReferences extends ArrayList<Object> {
        private static final long serialVersionUID = 1L;
        private final transient DecodeBudget budget;

        BackReferences(DecodeBudget budget) {
            this.budget = budget;
        }

        @Override
        public Object get(int index) {
            Object value = super.get(index);
            budget.backReference(index);
            return value;
        }
    }
}
