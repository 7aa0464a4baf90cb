package org.picothreads.piranha;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.picothreads.piranha.api.Crawl;
import org.picothreads.piranha.api.CrawlCounters;
import org.picothreads.piranha.api.CrawlSettings;
import org.picothreads.piranha.api.Spawner;

/**
 * Loads the crawler a mode runs: the rewritten classes from the class path for pico mode, or the untransformed copy
 * the build keeps under {@code piranha-untransformed/} for the others, in a class loader of its own that defines
 * the crawler package from that copy and takes everything else (the seam, jsoup, the JDK) from its parent.
 */
final class CrawlerLoader extends ClassLoader {

    /** The directory of the class path that holds the untransformed crawler classes. */
    static final String UNTRANSFORMED_DIRECTORY = "piranha-untransformed/";
    private static final String CRAWLER_PACKAGE = "org.picothreads.piranha.crawler.";
    private static final String CRAWL_CLASS = CRAWLER_PACKAGE + "PiranhaCrawl";

    static {
        registerAsParallelCapable();
    }

    private CrawlerLoader(ClassLoader parent) {
        super("piranha-untransformed", parent);
    }

    /** A new crawl in the mode's copy of the crawler; a null spawner means a thread per URL. */
    static Crawl newCrawl(Mode mode, CrawlSettings settings, CrawlCounters counters, Spawner spawner) {
        ClassLoader application = CrawlerLoader.class.getClassLoader();
        ClassLoader loader = mode == Mode.PICO ? application : new CrawlerLoader(application);
        try {
            Class<?> crawlClass = Class.forName(CRAWL_CLASS, true, loader);
            return (Crawl) crawlClass.getConstructor(CrawlSettings.class, CrawlCounters.class, Spawner.class)
                    .newInstance(settings, counters, spawner);
        } catch (ReflectiveOperationException failure) {
            throw new IllegalStateException("cannot load the " + mode.label() + " crawler", failure);
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(CRAWLER_PACKAGE)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String resource = UNTRANSFORMED_DIRECTORY + name.replace('.', '/') + ".class";
        try (InputStream input = getParent().getResourceAsStream(resource)) {
            if (input == null) {
                throw new ClassNotFoundException(name + " (no " + resource + " on the class path: build with Maven)");
            }
            byte[] bytes = input.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
