FROM node:20-bookworm-slim

WORKDIR /app
RUN chown node:node /app
USER node

# Dependencies first, so a source change does not reinstall them. `npm start` builds the
# client and the server's bundle at start, so the development dependencies (tsx, vite,
# esbuild) are kept.
COPY --chown=node:node package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY --chown=node:node . .
RUN npx vite build --config web/vite.config.ts \
 && mkdir -p var

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
EXPOSE 3000

CMD ["npm", "start"]
