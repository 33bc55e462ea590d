package io.ferry.rpc.registry;

/** Where a registry's session stands, as an operator's dashboard shows it. */
public enum RegistryState {
    /** Connected: registrations and provider lists are live. */
    CONNECTED,
    /** The connection dropped; the session may still be alive, and subscribers keep the last list. */
    SUSPENDED,
    /** The session is gone (expired, or never made): registrations come back with the next session. */
    LOST
}
