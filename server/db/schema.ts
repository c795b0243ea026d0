/**
 * The first version of the schema (migration 1). Later changes are migrations in migrations.ts.
 *
 * - users / tokens: accounts and login credentials (SHA-256 of the credential only).
 * - artists, playlists (also albums, charts and liked-songs lists), songs, song_artists, song_files.
 * - playlist_songs, likes: membership and per-user likes.
 * - images: embedded cover art of imported albums. library_files: what the importer has seen.
 * - *_fts + search_keys: search (see catalog/search.ts).
 */
export const SCHEMA_V1 = `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        is_owner INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE tokens (
        hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX tokens_expires ON tokens(expires_at);

      CREATE TABLE artists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        source TEXT NOT NULL DEFAULT 'demo'
      );
      CREATE INDEX artists_name ON artists(name);

      -- Every collection of songs: user playlists, editorial playlists, charts, albums, liked songs.
      -- Albums live here too so that an album id is also a /playlist/detail id.
      CREATE TABLE playlists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('normal','album','dj','artist')),
        kind TEXT NOT NULL CHECK (kind IN ('user','editorial','chart','album','liked')),
        description TEXT,
        creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
        artist_id INTEGER REFERENCES artists(id) ON DELETE SET NULL,
        rule TEXT,
        released_at INTEGER,
        created_at INTEGER NOT NULL,
        source TEXT NOT NULL DEFAULT 'demo'
      );
      CREATE INDEX playlists_creator ON playlists(creator_id, kind);
      CREATE INDEX playlists_kind ON playlists(kind, released_at);
      CREATE INDEX playlists_album_key ON playlists(artist_id, name) WHERE kind = 'album';

      CREATE TABLE songs (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        tns TEXT,
        album_id INTEGER REFERENCES playlists(id) ON DELETE SET NULL,
        track_no INTEGER NOT NULL DEFAULT 0,
        duration_ms INTEGER NOT NULL,
        playable INTEGER NOT NULL DEFAULT 1,
        reason TEXT,
        seed INTEGER NOT NULL DEFAULT 0,
        tempo INTEGER NOT NULL DEFAULT 100,
        play_count INTEGER NOT NULL DEFAULT 0,
        like_count INTEGER NOT NULL DEFAULT 0,
        lyric_normal TEXT,
        lyric_translation TEXT,
        lyric_transliteration TEXT,
        lyric_wordforword TEXT,
        source TEXT NOT NULL DEFAULT 'demo',
        created_at INTEGER NOT NULL
      );
      CREATE INDEX songs_album ON songs(album_id, track_no);
      CREATE INDEX songs_score ON songs(play_count);
      CREATE INDEX songs_likes ON songs(like_count);

      CREATE TABLE song_artists (
        song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
        artist_id INTEGER NOT NULL REFERENCES artists(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        PRIMARY KEY (song_id, artist_id)
      ) WITHOUT ROWID;
      CREATE INDEX song_artists_artist ON song_artists(artist_id, song_id);

      -- One row per playable encoding of a song. md5 is filled in once the bytes exist.
      CREATE TABLE song_files (
        song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
        bitrate INTEGER NOT NULL,
        size INTEGER NOT NULL,
        md5 TEXT,
        path TEXT,
        mime TEXT NOT NULL DEFAULT 'audio/wav',
        PRIMARY KEY (song_id, bitrate)
      ) WITHOUT ROWID;

      CREATE TABLE playlist_songs (
        playlist_id INTEGER NOT NULL REFERENCES playlists(id) ON DELETE CASCADE,
        song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        PRIMARY KEY (playlist_id, song_id)
      ) WITHOUT ROWID;
      CREATE INDEX playlist_songs_order ON playlist_songs(playlist_id, position);

      CREATE TABLE likes (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        song_id INTEGER NOT NULL REFERENCES songs(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, song_id)
      ) WITHOUT ROWID;
      CREATE INDEX likes_order ON likes(user_id, created_at);

      -- Embedded cover art from imported files.
      CREATE TABLE images (
        owner TEXT PRIMARY KEY,
        mime TEXT NOT NULL,
        data BLOB NOT NULL
      );

      -- Files seen by the library importer, to rescan only what changed.
      CREATE TABLE library_files (
        path TEXT PRIMARY KEY,
        mtime_ms INTEGER NOT NULL,
        size INTEGER NOT NULL,
        song_id INTEGER REFERENCES songs(id) ON DELETE SET NULL,
        error TEXT
      );

      -- Search. Trigram FTS for queries of 3+ characters; short queries scan the lower-cased key columns.
      CREATE VIRTUAL TABLE songs_fts USING fts5(name, extra, tokenize = 'trigram', content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE artists_fts USING fts5(name, tokenize = 'trigram', content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE albums_fts USING fts5(name, extra, tokenize = 'trigram', content = '', contentless_delete = 1);
      CREATE VIRTUAL TABLE playlists_fts USING fts5(name, extra, tokenize = 'trigram', content = '', contentless_delete = 1);
      CREATE TABLE search_keys (
        kind TEXT NOT NULL,
        id INTEGER NOT NULL,
        key TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      ) WITHOUT ROWID;
`
