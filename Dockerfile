# One image for every role: `serve` (a table server) and `worker` (an inference worker).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY domino ./domino
COPY storage ./storage
COPY inference ./inference
COPY strategy ./strategy
COPY server ./server
COPY clients ./clients
RUN pip install --no-cache-dir .
ENTRYPOINT ["domino-oracle"]
