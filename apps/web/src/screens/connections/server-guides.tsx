import type { ReactNode } from 'react';
import type { Server } from '../../api/hook-calls';

export interface ServerGuide {
  name: string;
  /** One line under the server's name on the overview. */
  summary: string;
  /** What to do in the media server, in order, once the URL is copied. */
  steps: ReactNode[];
}

/** How each media server is told about its hook: the menus as the servers name them. */
export const SERVER_GUIDES: Record<Server, ServerGuide> = {
  jellyfin: {
    name: 'Jellyfin',
    summary: 'Through Jellyfin’s Webhook plugin.',
    steps: [
      <>In Jellyfin, open <strong>Dashboard → Plugins → Catalog</strong>, install <strong>Webhook</strong>, then restart Jellyfin.</>,
      <>Open <strong>Dashboard → Plugins → Webhook</strong> and choose <strong>Add Generic Destination</strong>.</>,
      <>Paste the URL below into <strong>Webhook Url</strong>.</>,
      <>Under <strong>Notification Type</strong>, tick <strong>Playback Start</strong>, <strong>Playback Stop</strong> and <strong>User Data Saved</strong> (what you mark as played).</>,
      <>Under <strong>Item Type</strong>, tick <strong>Movies</strong> and <strong>Episodes</strong>, tick <strong>Send All Properties (ignores template)</strong>, then <strong>Save</strong>.</>,
    ],
  },
  plex: {
    name: 'Plex',
    summary: 'Through Plex’s webhooks (they need a Plex Pass).',
    steps: [
      <>In Plex Web, open <strong>Settings</strong> for your account (not the server) and choose <strong>Webhooks</strong>.</>,
      <>Choose <strong>Add Webhook</strong> and paste the URL below.</>,
      <><strong>Save Changes</strong>. Plex then tells us about every play, pause, stop and “scrobble” (watched to the end) of your account.</>,
    ],
  },
  emby: {
    name: 'Emby',
    summary: 'Through Emby Server’s webhooks.',
    steps: [
      <>In Emby, open <strong>Settings → Webhooks</strong> (on older servers: <strong>Settings → Notifications → Add Notification → Webhooks</strong>).</>,
      <>Choose <strong>Add Webhook</strong> and paste the URL below; leave the request content type as it is.</>,
      <>Under <strong>Events</strong>, tick <strong>Playback: Start</strong>, <strong>Playback: Stop</strong> and <strong>Mark played</strong>, pick your user, then <strong>Save</strong>.</>,
    ],
  },
  generic: {
    name: 'Other players',
    summary: 'Any script or player that can send JSON.',
    steps: [
      <>Send a <code>POST</code> with a JSON body to the URL below when playback starts and stops.</>,
      <>
        The body: <code>{'{ "event": "start" | "stop" | "played", "type": "movie" | "episode", "title", "year", "show_title", "season", "episode", "progress": 0–1 }'}</code>; add{' '}
        <code>external_ids</code> (<code>imdb</code>, <code>tmdb</code>, <code>tvdb</code>) when you have them.
      </>,
      <>See the API documentation (“Scrobbling from media servers”) for every field.</>,
    ],
  },
};
