package dev.controllerobservability.scrape;

/**
 * A scrape refused because its rendering passed the maximum size: every request that
 * shared the rendering gets this exception, and a scrape endpoint answers it with an HTTP
 * error whose body is the message. Example message, on the plain Java path:
 *
 * <pre>
 * The scrape was refused: it passed its maximum size of 1048576 bytes (SharedScrape.Builder.maxSize(…)) at 1052671 bytes. Raise SharedScrape.Builder.maxSize(…) above the size of a whole scrape, or expose fewer series.
 * </pre>
 */
public class ScrapeTooLargeException extends IllegalStateException {

	private final long maxSize;

	private final long reachedSize;

	private final String setting;

	ScrapeTooLargeException(long maxSize, long reachedSize, String setting) {
		super("The scrape was refused: it passed its maximum size of " + maxSize + " bytes (" + setting + ") at "
				+ reachedSize + " bytes. Raise " + setting
				+ " above the size of a whole scrape, or expose fewer series.");
		this.maxSize = maxSize;
		this.reachedSize = reachedSize;
		this.setting = setting;
	}

	String setting() {
		return this.setting;
	}

	/**
	 * The maximum size the rendering passed.
	 * @return the limit, in bytes
	 */
	public long getMaxSize() {
		return this.maxSize;
	}

	/**
	 * The size the rendering had reached when it stopped, just past the limit.
	 * @return the size, in bytes
	 */
	public long getReachedSize() {
		return this.reachedSize;
	}

}
