package dev.controllerobservability.autoconfigure.kubernetes;

import java.util.Optional;

import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import dev.controllerobservability.kubernetes.webhook.WebhookMetrics;

/**
 * Records each request to a declared webhook path on WebFlux. An error that Spring turns
 * into a status of its own ({@link ErrorResponse}, such as a
 * {@code ResponseStatusException}) is an answer with that status, as on the servlet
 * stack; any other error is a panic, answered with 500.
 */
final class WebhookWebFilter implements WebFilter, Ordered {

	private final WebhookMetrics metrics;

	WebhookWebFilter(WebhookMetrics metrics) {
		this.metrics = metrics;
	}

	@Override
	public int getOrder() {
		return WebhookObservation.FILTER_ORDER;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		Optional<WebhookMetrics.Webhook> webhook = this.metrics
			.webhook(exchange.getRequest().getPath().pathWithinApplication().value());
		if (webhook.isEmpty()) {
			return chain.filter(exchange);
		}
		return Mono.defer(() -> {
			WebhookMetrics.Request observed = webhook.get().start();
			return chain.filter(exchange).doOnSuccess((done) -> observed.finish(status(exchange))).doOnError((ex) -> {
				if (ex instanceof ErrorResponse answer) {
					observed.finish(answer.getStatusCode().value());
				}
				else {
					observed.panicked();
				}
			}).doFinally((signal) -> {
				if (signal == SignalType.CANCEL) {
					observed.abandon();
				}
			});
		});
	}

	private static int status(ServerWebExchange exchange) {
		HttpStatusCode status = exchange.getResponse().getStatusCode();
		return (status != null) ? status.value() : 200;
	}

}
