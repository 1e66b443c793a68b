# One image for every role: `serve` (a table server) and `worker` (an inference worker).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games ./games
COPY inference ./inference
COPY storage ./storage
COPY archive ./archive
COPY strategy ./strategy
COPY calibration ./calibration
COPY protocol ./protocol
COPY server ./server
COPY clients ./clients
RUN pip install --no-cache-dir .
ENTRYPOINT ["domino-oracle"]
