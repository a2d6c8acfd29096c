package dev.controllerobservability.scrape;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects a rendering into chunks of one size, so that a 200 MB scrape never needs a 200
 * MB array (nor the doubling and the final copy of a {@code ByteArrayOutputStream}), and
 * stops the rendering, its chunks dropped, as soon as it passes the maximum size.
 */
final class ChunkedOutputStream extends OutputStream {

	private final int chunkSize;

	private final long maxSize;

	private final List<byte[]> chunks = new ArrayList<>();

	private byte[] current;

	private int position;

	private long size;

	private long reached = -1;

	ChunkedOutputStream(int chunkSize, long maxSize) {
		this.chunkSize = chunkSize;
		this.maxSize = maxSize;
		this.current = new byte[0];
		this.position = 0;
	}

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.reached >= 0) {
			throw new TooLarge();
		}
		if (this.size + length > this.maxSize) {
			this.reached = this.size + length;
			free();
			throw new TooLarge();
		}
		int done = 0;
		while (done < length) {
			if (this.position == this.current.length) {
				this.current = new byte[this.chunkSize];
				this.chunks.add(this.current);
				this.position = 0;
			}
			int count = Math.min(length - done, this.current.length - this.position);
			System.arraycopy(bytes, offset + done, this.current, this.position, count);
			this.position += count;
			done += count;
		}
		this.size += length;
	}

	/** Drops the chunks, so that a refused rendering holds no memory while it unwinds. */
	void free() {
		this.chunks.clear();
		this.current = new byte[0];
		this.position = 0;
	}

	/**
	 * The size the rendering reached when it passed the maximum.
	 * @return the size, or -1 if it never passed it
	 */
	long reached() {
		return this.reached;
	}

	/**
	 * The chunks held, for a test that checks they were dropped.
	 * @return the number of chunks
	 */
	int chunkCount() {
		return this.chunks.size();
	}

	RenderedScrape rendered(String contentType) {
		return new RenderedScrape(contentType, List.copyOf(this.chunks), this.size);
	}

	/** Unwinds the writer once the maximum size is passed. */
	static final class TooLarge extends IOException {

		TooLarge() {
			super("The scrape passed its maximum size");
		}

	}

}
