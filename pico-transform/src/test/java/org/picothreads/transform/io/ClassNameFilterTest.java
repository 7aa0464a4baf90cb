package org.picothreads.transform.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClassNameFilterTest {
    @Test
    void no_patterns_choose_every_class() {
        assertTrue(ClassNameFilter.of(null, null).accepts("com.example.Anything"));
        assertTrue(ClassNameFilter.everyClass().accepts("Top"));
    }

    @Test
    void a_star_matches_subpackages_and_nested_classes() {
        ClassNameFilter filter = ClassNameFilter.of(List.of("com.example.*"), List.of());
        assertTrue(filter.accepts("com.example.Worker"));
        assertTrue(filter.accepts("com.example.deep.Outer$Inner"));
        assertFalse(filter.accepts("com.examples.Worker"));
        assertFalse(filter.accepts("org.other.Worker"));
    }

    @Test
    void excludes_win_over_includes() {
        ClassNameFilter filter = ClassNameFilter.of(List.of("com.example.*"), List.of("com.example.legacy.*"));
        assertTrue(filter.accepts("com.example.Worker"));
        assertFalse(filter.accepts("com.example.legacy.OldWorker"));
    }

    @Test
    void a_question_mark_matches_one_character_and_slashes_count_as_dots() {
        ClassNameFilter filter = ClassNameFilter.of(List.of("com/example/Worker?"), List.of());
        assertTrue(filter.accepts("com/example/Worker1"));
        assertTrue(filter.accepts("com.example.Worker2"));
        assertFalse(filter.accepts("com.example.Worker12"));
    }

    @Test
    void class_files_are_matched_by_the_class_they_hold() {
        ClassNameFilter filter = ClassNameFilter.of(List.of("com.example.*"), List.of());
        assertTrue(filter.acceptsClassFile("com/example/Worker.class"));
        assertTrue(filter.acceptsClassFile("META-INF/versions/21/com/example/Worker.class"));
        assertEquals("com.example.Outer$Inner", ClassNameFilter.classNameOf("com/example/Outer$Inner.class"));
    }

    @Test
    void a_pattern_with_a_space_or_separator_is_refused() {
        assertThrows(IllegalArgumentException.class, () -> ClassNameFilter.of(List.of("com.example.* org.*"), null));
        assertThrows(IllegalArgumentException.class, () -> ClassNameFilter.of(null, List.of("a;b")));
    }
}
