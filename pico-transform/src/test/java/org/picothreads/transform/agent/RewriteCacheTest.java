package org.picothreads.transform.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.picothreads.transform.ClassInput;
import org.picothreads.transform.ClassOutput;
import org.picothreads.transform.TransformResult;
import org.picothreads.transform.io.ClassNameFilter;
import org.picothreads.transform.report.ClassReport;
import org.picothreads.transform.report.TransformReport;

class RewriteCacheTest {
    private static final byte[] CLASS_FILE = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, 61, 1, 2};

    @TempDir
    Path directory;

    private Path classPathWith(String name, String content) throws Exception {
        Path entry = Files.createDirectories(directory.resolve("classes"));
        Files.writeString(entry.resolve(name), content);
        return entry;
    }

    private String contextOf(Path... classPath) throws Exception {
        return RewriteCache.context(directory.resolve("agent.jar"), "includes=x.*", List.of(classPath));
    }

    @Test
    void a_stored_rewrite_is_found_for_the_same_bytes_and_only_for_them() throws Exception {
        RewriteCache cache = RewriteCache.open(directory.resolve("cache"), contextOf(classPathWith("A.class", "a")));
        byte[] rewritten = {9, 8, 7};
        cache.store("x/A", CLASS_FILE, rewritten, "x.A");

        RewriteCache.Entry found = cache.find("x/A", CLASS_FILE.clone());
        assertArrayEquals(rewritten, found.rewritten());
        assertEquals("x.A", found.socketUser());
        byte[] otherBytes = CLASS_FILE.clone();
        otherBytes[9] = 3;
        assertNull(cache.find("x/A", otherBytes));
        assertNull(cache.find("x/B", CLASS_FILE));
    }

    @Test
    void a_new_context_deletes_all_but_the_contexts_used_last() throws Exception {
        Path root = directory.resolve("cache");
        List<Path> contexts = new ArrayList<>();
        for (int index = 0; index < RewriteCache.KEPT_CONTEXTS; index++) {
            RewriteCache cache = RewriteCache.open(root, contextOf(classPathWith("A.class", "version " + index)));
            cache.store("x/A", CLASS_FILE, new byte[] {(byte) index}, null);
            contexts.add(cache.directory());
            Files.setLastModifiedTime(cache.directory().resolve("context"),
                    FileTime.fromMillis(1_000_000L * (index + 1)));
        }
        String firstContext = contextOf(classPathWith("A.class", "version 0"));
        assertNotNull(RewriteCache.open(root, firstContext), "using the oldest context again makes it the newest");

        RewriteCache newest = RewriteCache.open(root, contextOf(classPathWith("A.class", "version new")));

        List<Path> left;
        try (Stream<Path> children = Files.list(root)) {
            left = children.sorted().toList();
        }
        assertEquals(RewriteCache.KEPT_CONTEXTS, left.size());
        assertTrue(left.contains(newest.directory()));
        assertTrue(left.contains(contexts.get(0)), "the context used again is kept");
        assertFalse(left.contains(contexts.get(1)), "the context used longest ago is deleted");
        assertArrayEquals(new byte[] {0},
                RewriteCache.open(root, firstContext).find("x/A", CLASS_FILE).rewritten());
    }

    @Test
    void a_class_the_rewrite_left_unchanged_is_cached_as_unchanged() throws Exception {
        RewriteCache cache = RewriteCache.open(directory.resolve("cache"), contextOf(classPathWith("A.class", "a")));
        cache.store("x/A", CLASS_FILE, null, null);

        RewriteCache.Entry found = cache.find("x/A", CLASS_FILE);
        assertNotNull(found);
        assertNull(found.rewritten());
        assertNull(found.socketUser());
    }

    @Test
    void an_entry_whose_recorded_input_differs_from_the_loading_bytes_is_not_used() throws Exception {
        RewriteCache cache = RewriteCache.open(directory.resolve("cache"), contextOf(classPathWith("A.class", "a")));
        cache.store("x/A", CLASS_FILE, new byte[] {1}, null);
        Path entry;
        try (Stream<Path> files = Files.list(cache.directory())) {
            entry = files.filter(file -> file.toString().endsWith(".rewrite")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(entry);
        bytes[4 + 4 + 9] ^= 1;
        Files.write(entry, bytes);
        assertNull(cache.find("x/A", CLASS_FILE), "the recorded class bytes no longer equal the loading ones");

        Files.write(entry, Arrays.copyOf(bytes, bytes.length - 1));
        assertNull(cache.find("x/A", CLASS_FILE), "a truncated entry is ignored");
    }

    @Test
    void a_changed_class_path_file_gives_another_context_and_another_directory() throws Exception {
        Path classes = classPathWith("A.class", "a");
        String before = contextOf(classes);
        RewriteCache first = RewriteCache.open(directory.resolve("cache"), before);
        first.store("x/A", CLASS_FILE, new byte[] {1}, null);

        Files.writeString(classes.resolve("A.class"), "b");
        String after = contextOf(classes);
        RewriteCache second = RewriteCache.open(directory.resolve("cache"), after);

        assertNotEquals(before, after);
        assertNotEquals(first.directory(), second.directory());
        assertNull(second.find("x/A", CLASS_FILE));
        assertNotNull(first.find("x/A", CLASS_FILE), "the old context keeps its entries until deleted");
    }

    @Test
    void a_context_directory_holding_another_context_text_is_not_used() throws Exception {
        String context = contextOf(classPathWith("A.class", "a"));
        RewriteCache cache = RewriteCache.open(directory.resolve("cache"), context);
        Files.writeString(cache.directory().resolve("context"), context + "entry another\n");

        assertNull(RewriteCache.open(directory.resolve("cache"), context));
    }

    @Test
    void the_transformer_hands_over_a_cached_class_without_rewriting_it_again() throws Exception {
        RewriteCache cache = RewriteCache.open(directory.resolve("cache"), contextOf(classPathWith("A.class", "a")));
        List<ClassInput> calls = new ArrayList<>();
        ClassRewriting marking = input -> {
            calls.add(input);
            byte[] marked = Arrays.copyOf(input.bytes(), input.bytes().length + 1);
            return new TransformResult(List.of(new ClassOutput(input.source(), "x/A", marked, true)),
                    new TransformReport(List.of(new ClassReport("x/A", input.source(), true, false, List.of(), 1))));
        };
        PrintStream warnings = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        ClassLoader loader = ClassLoader.getSystemClassLoader();

        byte[] first = new RewritingTransformer(ClassNameFilter.everyClass(), marking, cache, warnings)
                .transform(loader, "x/A", null, null, CLASS_FILE);
        byte[] second = new RewritingTransformer(ClassNameFilter.everyClass(), marking, cache, warnings)
                .transform(loader, "x/A", null, null, CLASS_FILE);

        assertEquals(1, calls.size(), "the second transformer found the class in the cache");
        assertArrayEquals(Arrays.copyOf(CLASS_FILE, CLASS_FILE.length + 1), first);
        assertArrayEquals(first, second);
    }
}
