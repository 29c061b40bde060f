// Loads every native definition (each module registers its natives when imported).
import './resources.js';
import './players.js';
import './convars.js';
import './commands.js';
import './kvp.js';
import './statebags.js';
import './ui.js';
import './http.js';
