package io.ferry.rpc.remoting.internal.serialize;

import com.alibaba.com.caucho.hessian.io.Hessian2Input;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ferry's string reading takes ASCII from hessian-lite's read-ahead buffer: these are the handles it needs. */
class ReadAheadTest {

    @Test
    void hessianLitesBufferIsReachable() {
        assertTrue(ReadAhead.available(), "hessian-lite's Hessian2Input no longer has _buffer/_offset/_length");
    }

    @Test
    void takesOnlyBufferedAsciiAndConsumesNothingOtherwise() throws IOException {
        Hessian2Input in = new Hessian2Input(new ByteArrayInputStream(new byte[] {'a', 'b', (byte) 0xc3, (byte) 0xa9}));
        assertEquals('a', in.read()); // fills the buffer
        assertNull(ReadAhead.asciiString(in, 3), "not ASCII");
        assertNull(ReadAhead.asciiString(in, 9), "not buffered");
        assertEquals("b", ReadAhead.asciiString(in, 1));
        byte[] into = new byte[4];
        assertEquals(0, ReadAhead.copyAscii(in, into, 0, 4));
        assertEquals(0xc3, in.read());
    }
}
