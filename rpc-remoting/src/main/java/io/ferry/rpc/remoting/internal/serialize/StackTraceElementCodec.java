package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.AbstractDeserializer;
import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.AbstractHessianOutput;
import com.alibaba.com.caucho.hessian.io.AbstractSerializer;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.Serializer;

import java.io.IOException;

/**
 * StackTraceElement in the JDK 9+ field layout Dubbo peers use, written from its getters and read into its public
 * seven-argument constructor: no reflection into {@code java.lang}.
 */
final class StackTraceElementCodec {
    private static final String TYPE = StackTraceElement.class.getName();
    private static final String[] FIELDS = {"classLoaderName", "moduleName", "moduleVersion", "declaringClass",
            "methodName", "fileName", "lineNumber"};

    static final Serializer SERIALIZER = new AbstractSerializer() {
        @Override
        public void writeObject(Object obj, AbstractHessianOutput out) throws IOException {
            if (out.addRef(obj)) {
                return;
            }
            StackTraceElement e = (StackTraceElement) obj;
            int ref = out.writeObjectBegin(TYPE);
            if (ref < -1) {
                throw new IOException("hessian 1 map form is not supported for " + TYPE);
            }
            if (ref == -1) {
                out.writeInt(FIELDS.length);
                for (String name : FIELDS) {
                    out.writeString(name);
                }
                out.writeObjectBegin(TYPE);
            }
            out.writeString(e.getClassLoaderName());
            out.writeString(e.getModuleName());
            out.writeString(e.getModuleVersion());
            out.writeString(e.getClassName());
            out.writeString(e.getMethodName());
            out.writeString(e.getFileName());
            out.writeInt(e.getLineNumber());
        }
    };

    static final Deserializer DESERIALIZER = new AbstractDeserializer() {
        @Override
        public Class<?> getType() {
            return StackTraceElement.class;
        }

        @Override
        public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
            int ref = in.addRef(null);
            String loader = null;
            String module = null;
            String moduleVersion = null;
            String declaringClass = "";
            String methodName = "";
            String fileName = null;
            int line = -1;
            for (Object f : fields) {
                switch ((String) f) {
                    case "classLoaderName" -> loader = in.readString();
                    case "moduleName" -> module = in.readString();
                    case "moduleVersion" -> moduleVersion = in.readString();
                    case "declaringClass" -> declaringClass = orEmpty(in.readString());
                    case "methodName" -> methodName = orEmpty(in.readString());
                    case "fileName" -> fileName = in.readString();
                    case "lineNumber" -> line = in.readInt();
                    default -> in.readObject();
                }
            }
            StackTraceElement element = new StackTraceElement(loader, module, moduleVersion, declaringClass,
                    methodName, fileName, line);
            in.setRef(ref, element);
            return element;
        }

        @Override
        public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
            return readObject(in, (Object[]) fieldNames);
        }
    };

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private StackTraceElementCodec() {
    }
}
