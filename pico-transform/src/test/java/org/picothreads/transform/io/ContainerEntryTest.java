package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ContainerEntryTest {
    @Test
    void signature_files_are_the_signature_and_block_files_directly_in_meta_inf() {
        List<String> names = List.of("META-INF/SIGNER.SF", "META-INF/signer.rsa", "META-INF/KEY.DSA",
                "META-INF/KEY.EC", "META-INF/SIG-TSA", "META-INF/MANIFEST.MF", "META-INF/sub/INNER.SF",
                "com/x/META-INF/A.SF", "META-INF/services/java.lang.Runnable");

        List<String> signatureFiles = names.stream().filter(name -> entry(name).isSignatureFile())
                .collect(Collectors.toList());

        assertEquals(List.of("META-INF/SIGNER.SF", "META-INF/signer.rsa", "META-INF/KEY.DSA", "META-INF/KEY.EC",
                "META-INF/SIG-TSA"), signatureFiles);
    }

    @Test
    void module_descriptors_are_not_classes_for_the_transformer() {
        assertTrue(entry("module-info.class").isModuleInfo());
        assertTrue(entry("META-INF/versions/11/module-info.class").isModuleInfo());
        assertFalse(entry("module-info.class").isClass());
        assertFalse(entry("com/x/my-module-info.class").isModuleInfo());
        assertTrue(entry("com/x/package-info.class").isClass());
        assertTrue(entry("META-INF/versions/11/com/x/Foo.class").isClass());
        assertFalse(entry("com/x/Foo.java").isClass());
    }

    @Test
    void a_name_ending_in_a_slash_is_a_directory() {
        assertTrue(entry("com/x/").isDirectory());
        assertFalse(entry("com/x").isDirectory());
    }

    private static ContainerEntry entry(String name) {
        return new ContainerEntry(name, new byte[0], null);
    }
}
